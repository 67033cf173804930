/*
 * libtucana_advise_profile -- the profiler of `tucana-advise profile`: a PMPI
 * interposition library that records, per call site of every communication
 * call, how often it ran, how many bytes it moved, how long it took and how
 * much computation lay between two of its calls.
 *
 *     mpirun -np 4 -x LD_PRELOAD=.../libtucana_advise_profile.so \
 *            -x TUCANA_ADVISE_PROFILE_DIR=/tmp/p ./app
 *
 * A call site is the return address of the MPI call in the caller, kept as
 * the module that holds it and the offset in that module (so that the site
 * of a position-independent executable or of a shared library resolves with
 * addr2line whatever its load address). Per site: the call's name, the
 * number of calls, the bytes (count * type size as passed to the call; for
 * v and w variants the sum of the counts), the time inside the call, the
 * gaps between the end of one call of the site and the start of the next
 * (sum, min, max: the computation that could hide it) and the size of the
 * communicator. A nonblocking post's site also gets the time later spent
 * in the MPI_Wait* / MPI_Test* calls that completed its requests (wait_s);
 * the wait's site notes the part of its time so handed on (attributed_s).
 *
 * At MPI_Finalize each rank writes $TUCANA_ADVISE_PROFILE_DIR/rank-N.json
 * (format: docs/advise.md). Without TUCANA_ADVISE_PROFILE_DIR nothing is
 * recorded.
 *
 * On Tucana's virtual MPI (tucana-run) the subranks of a process share this
 * library's globals, and a subrank may move between worker threads: state is
 * kept per MPI_COMM_WORLD rank (one slot per rank, each with its own lock,
 * held only while a call's numbers are added, never across an MPI call).
 * There the library is linked into the program (libtucana_advise_tucana.a),
 * not preloaded: a tucanacc program is linked statically with the runtime.
 * Globals are named tucana_* so tucanacc does not warn about them.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h> /* ElfW */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if !defined(MPI_VERSION) || MPI_VERSION < 3
#error "libtucana_advise_profile needs an MPI 3 (or newer) mpi.h"
#endif

#define ADVISE "tucana-advise-profile"

/* ------------------------------------------------------------------ state */

struct tucana_advise_site {
    uintptr_t ra;         /* return address of the call; 0: free slot */
    const char *call;     /* "MPI_Alltoall", a string literal */
    unsigned long count;  /* calls */
    double bytes;         /* sum over the calls */
    double time;          /* inside the calls, s */
    double gap_sum, gap_min, gap_max; /* between consecutive calls, s */
    unsigned long gaps;
    double last_end;      /* end of the latest call */
    int comm_size;        /* of the first call */
    double wait_s;        /* a post: time later spent completing its requests */
    double attributed_s;  /* a wait or test: the part of its time in wait_s */
};

/* The post site of each request in flight (open addressing; key 0: free,
 * kTombstone: deleted). */
struct tucana_advise_req {
    uint64_t key;
    uintptr_t ra;
};

struct tucana_advise_rank {
    pthread_mutex_t lock;
    struct tucana_advise_site *sites; /* open addressing on ra */
    size_t n, cap;
    struct tucana_advise_req *reqs;
    size_t req_used, req_cap; /* used: live and deleted slots */
    double t_init;
};

static pthread_mutex_t tucana_advise_global = PTHREAD_MUTEX_INITIALIZER;
static struct tucana_advise_rank *tucana_advise_ranks; /* [world size] */
static int tucana_advise_world = -1;  /* -1: not initialized or disabled */
static const char *tucana_advise_dir;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The calling rank's state, or NULL when not recording. */
static struct tucana_advise_rank *my_rank(void)
{
    if (tucana_advise_world <= 0) return NULL;
    int rank = -1;
    if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || rank < 0 ||
        rank >= tucana_advise_world)
        return NULL;
    return &tucana_advise_ranks[rank];
}

static size_t slot_of(uintptr_t ra, size_t cap)
{
    uint64_t h = (uint64_t)ra * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & (cap - 1);
}

static struct tucana_advise_site *find_site(struct tucana_advise_rank *r, uintptr_t ra)
{
    if (2 * (r->n + 1) > r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        struct tucana_advise_site *s = calloc(cap, sizeof *s);
        if (s == NULL) return NULL;
        for (size_t i = 0; i < r->cap; i++) {
            if (r->sites[i].ra == 0) continue;
            size_t j = slot_of(r->sites[i].ra, cap);
            while (s[j].ra != 0) j = (j + 1) & (cap - 1);
            s[j] = r->sites[i];
        }
        free(r->sites);
        r->sites = s;
        r->cap = cap;
    }
    size_t j = slot_of(ra, r->cap);
    while (r->sites[j].ra != 0 && r->sites[j].ra != ra) j = (j + 1) & (r->cap - 1);
    if (r->sites[j].ra == 0) {
        r->sites[j].ra = ra;
        r->n++;
    }
    return &r->sites[j];
}

/* Adds one call [t0, t1] of site ra. */
static int comm_size_of(MPI_Comm comm);

static void record(void *ra, const char *call, double t0, double t1, double bytes, MPI_Comm comm)
{
    struct tucana_advise_rank *r = my_rank();
    if (r == NULL) return;
    int first = 0;
    pthread_mutex_lock(&r->lock);
    struct tucana_advise_site *s = find_site(r, (uintptr_t)ra);
    if (s != NULL) {
        if (s->count == 0) {
            s->call = call;
            first = 1;
        } else {
            double gap = t0 - s->last_end;
            if (gap < 0) gap = 0;
            if (s->gaps == 0 || gap < s->gap_min) s->gap_min = gap;
            if (gap > s->gap_max) s->gap_max = gap;
            s->gap_sum += gap;
            s->gaps++;
        }
        s->count++;
        s->bytes += bytes;
        s->time += t1 - t0;
        s->last_end = t1;
    }
    pthread_mutex_unlock(&r->lock);
    /* The communicator's size, once per site, with no lock held: no MPI
     * call is made under a lock (on Tucana a call may switch fibers). */
    if (first && comm != MPI_COMM_NULL) {
        int size = comm_size_of(comm);
        pthread_mutex_lock(&r->lock);
        s = find_site(r, (uintptr_t)ra);
        if (s != NULL) s->comm_size = size;
        pthread_mutex_unlock(&r->lock);
    }
}

/* ------------------------------------------- requests and their post site */

static const uint64_t kTombstone = 1;

static uint64_t req_key(MPI_Request req)
{
    uint64_t k = 0;
    memcpy(&k, &req, sizeof req < sizeof k ? sizeof req : sizeof k);
    /* 0 and 1 are the map's own marks: shift the rare handle that is one. */
    return k < 2 ? k + 0x100000000ull : k;
}

static int req_grow(struct tucana_advise_rank *r)
{
    size_t cap = r->req_cap ? r->req_cap : 64;
    size_t live = 0;
    for (size_t i = 0; i < r->req_cap; i++) live += r->reqs[i].key > kTombstone;
    while (4 * (live + 1) > cap) cap *= 2;
    struct tucana_advise_req *t = calloc(cap, sizeof *t);
    if (t == NULL) return 0;
    for (size_t i = 0; i < r->req_cap; i++) {
        if (r->reqs[i].key <= kTombstone) continue;
        size_t j = slot_of((uintptr_t)r->reqs[i].key, cap);
        while (t[j].key != 0) j = (j + 1) & (cap - 1);
        t[j] = r->reqs[i];
    }
    free(r->reqs);
    r->reqs = t;
    r->req_cap = cap;
    r->req_used = live;
    return 1;
}

/* Under r->lock. */
static void req_put(struct tucana_advise_rank *r, MPI_Request req, uintptr_t ra)
{
    if (req == MPI_REQUEST_NULL) return;
    if (2 * (r->req_used + 1) > r->req_cap && !req_grow(r)) return;
    uint64_t k = req_key(req);
    size_t j = slot_of((uintptr_t)k, r->req_cap), free_slot = (size_t)-1;
    while (r->reqs[j].key != 0 && r->reqs[j].key != k) {
        if (r->reqs[j].key == kTombstone && free_slot == (size_t)-1) free_slot = j;
        j = (j + 1) & (r->req_cap - 1);
    }
    if (r->reqs[j].key == 0) {
        if (free_slot != (size_t)-1) j = free_slot;
        else r->req_used++;
    }
    r->reqs[j].key = k;
    r->reqs[j].ra = ra;
}

/* Under r->lock: the slot of req, or NULL. */
static struct tucana_advise_req *req_find(struct tucana_advise_rank *r, uint64_t k)
{
    if (r->req_cap == 0) return NULL;
    size_t j = slot_of((uintptr_t)k, r->req_cap);
    while (r->reqs[j].key != 0) {
        if (r->reqs[j].key == k) return &r->reqs[j];
        j = (j + 1) & (r->req_cap - 1);
    }
    return NULL;
}

static void post(void *ra, MPI_Request req)
{
    struct tucana_advise_rank *r = my_rank();
    if (r == NULL) return;
    pthread_mutex_lock(&r->lock);
    req_put(r, req, (uintptr_t)ra);
    pthread_mutex_unlock(&r->lock);
}

/* A wait or test at site ra took `time` over the n requests whose handles
 * were `before`; done[i] says whether request i completed. The time goes
 * to the post sites of the completed requests (of all of them when none
 * completed: a test that found nothing), in equal parts; the completed
 * requests leave the map. */
static void completed(void *ra, double time, int n, const uint64_t *before, const char *done)
{
    struct tucana_advise_rank *r = my_rank();
    if (r == NULL || n <= 0) return;
    pthread_mutex_lock(&r->lock);
    int any_done = 0, shares = 0;
    /* Any completed request counts, tracked or not: a Waitany that completed
     * an untracked (persistent) request keeps its time at the wait site. */
    for (int i = 0; i < n; i++) any_done |= done[i];
    for (int i = 0; i < n; i++)
        if ((done[i] || !any_done) && req_find(r, before[i]) != NULL) shares++;
    if (shares > 0) {
        double part = time / shares, given = 0;
        for (int i = 0; i < n; i++) {
            if (!(done[i] || !any_done)) continue;
            struct tucana_advise_req *q = req_find(r, before[i]);
            if (q == NULL) continue;
            struct tucana_advise_site *p = find_site(r, q->ra);
            if (p != NULL) {
                p->wait_s += part;
                given += part;
            }
            if (done[i]) q->key = kTombstone; /* p may have moved the table: q did not */
        }
        struct tucana_advise_site *w = find_site(r, (uintptr_t)ra);
        if (w != NULL) w->attributed_s += given;
    }
    pthread_mutex_unlock(&r->lock);
}

static double type_bytes(MPI_Datatype type, double count)
{
    int size = 0;
    if (type == MPI_DATATYPE_NULL || count <= 0) return 0;
    if (PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
    if (size == MPI_UNDEFINED) {
        /* Over INT_MAX bytes (Tucana has no MPI_Type_size_x): the extent. */
        MPI_Aint lb = 0, extent = 0;
        if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS || extent < 0) return 0;
        return count * (double)extent;
    }
    return count * size;
}

static int comm_size_of(MPI_Comm comm)
{
    int n = 0, inter = 0;
    if (comm == MPI_COMM_NULL) return 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter) PMPI_Comm_remote_size(comm, &n);
    else PMPI_Comm_size(comm, &n);
    return n;
}

static double sum_counts(const int *counts, MPI_Comm comm)
{
    double n = 0;
    if (counts == NULL) return 0;
    int size = comm_size_of(comm);
    for (int i = 0; i < size; i++) n += counts[i];
    return n;
}

/* ------------------------------------------------ init, finalize, output */

static void start(void)
{
    int size = 0, rank = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t = now();
    pthread_mutex_lock(&tucana_advise_global);
    if (tucana_advise_world < 0) {
        const char *dir = getenv("TUCANA_ADVISE_PROFILE_DIR");
        if (dir == NULL || *dir == '\0') {
            tucana_advise_world = 0;
            if (rank == 0)
                fprintf(stderr, ADVISE ": TUCANA_ADVISE_PROFILE_DIR is not set: nothing is recorded\n");
        } else {
            tucana_advise_dir = dir;
            tucana_advise_ranks = calloc((size_t)size, sizeof *tucana_advise_ranks);
            if (tucana_advise_ranks == NULL) {
                tucana_advise_world = 0;
            } else {
                for (int i = 0; i < size; i++) pthread_mutex_init(&tucana_advise_ranks[i].lock, NULL);
                tucana_advise_world = size;
            }
        }
    }
    pthread_mutex_unlock(&tucana_advise_global);
    struct tucana_advise_rank *r = my_rank();
    if (r != NULL) r->t_init = t;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* The file and offset addr2line needs for address a. */
static void module_of(uintptr_t a, char *path, size_t len, uintptr_t *offset)
{
    Dl_info info;
    path[0] = '\0';
    *offset = a;
    if (dladdr((void *)a, &info) == 0 || info.dli_fbase == NULL) return;
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)info.dli_fbase;
    /* A position-dependent executable: addr2line takes the address itself. */
    *offset = eh->e_type == ET_EXEC ? a : a - (uintptr_t)info.dli_fbase;
    /* The main program's name in dladdr is argv[0] or empty: use its path. */
    char resolved[PATH_MAX];
    const char *name = info.dli_fname;
    if (name == NULL || strchr(name, '/') == NULL || realpath(name, resolved) == NULL) {
        ssize_t n = readlink("/proc/self/exe", resolved, sizeof resolved - 1);
        if (n < 0) return;
        resolved[n] = '\0';
    }
    snprintf(path, len, "%s", resolved);
}

static void finish(void)
{
    struct tucana_advise_rank *r = my_rank();
    if (r == NULL) return;
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t = now();
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%s/rank-%d.json", tucana_advise_dir, rank);
    mkdir(tucana_advise_dir, 0777); /* EEXIST is fine */
    FILE *f = fopen(name, "w");
    if (f == NULL) {
        fprintf(stderr, ADVISE ": rank %d: cannot write %s: %s\n", rank, name, strerror(errno));
        return;
    }
    pthread_mutex_lock(&r->lock);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    fprintf(f, "{\"format\":\"tucana-advise-profile-1\",\"rank\":%d,\"world_size\":%d,"
               "\"time_s\":%.9g,\"executable\":",
            rank, tucana_advise_world, t - r->t_init);
    json_string(f, exe);
    fprintf(f, ",\"sites\":[");
    int first = 1;
    for (size_t i = 0; i < r->cap; i++) {
        const struct tucana_advise_site *s = &r->sites[i];
        if (s->ra == 0 || s->count == 0) continue;
        char mod[PATH_MAX];
        uintptr_t off;
        /* ra - 1: inside the call instruction, so that its line is found. */
        module_of(s->ra - 1, mod, sizeof mod, &off);
        fprintf(f, "%s\n{\"module\":", first ? "" : ",");
        json_string(f, mod);
        fprintf(f, ",\"offset\":\"0x%lx\",\"call\":\"%s\",\"count\":%lu,\"bytes\":%.17g,"
                   "\"time_s\":%.9g,\"gap_sum_s\":%.9g,\"gap_min_s\":%.9g,\"gap_max_s\":%.9g,"
                   "\"gaps\":%lu,\"comm_size\":%d,\"wait_s\":%.9g,\"attributed_s\":%.9g}",
                (unsigned long)off, s->call, s->count, s->bytes, s->time, s->gap_sum,
                s->gap_min, s->gap_max, s->gaps, s->comm_size, s->wait_s, s->attributed_s);
        first = 0;
    }
    fprintf(f, "\n]}\n");
    pthread_mutex_unlock(&r->lock);
    if (fclose(f) != 0)
        fprintf(stderr, ADVISE ": rank %d: cannot write %s: %s\n", rank, name, strerror(errno));
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) start();
    return rc;
}

int MPI_Finalize(void)
{
    finish();
    return PMPI_Finalize();
}

/* ------------------------------------------------------------- wrappers */

/* Each wrapper takes its own return address: that is the site. */
#define WRAP(NAME, BYTES, COMM, ...)                                           \
    void *ra_ = __builtin_return_address(0);                                   \
    double t0_ = now();                                                        \
    int rc_ = P##NAME(__VA_ARGS__);                                            \
    double t1_ = now();                                                        \
    record(ra_, #NAME, t0_, t1_, (BYTES), (COMM));                             \
    return rc_

/* A nonblocking call: the site of its request *REQ is remembered. */
#define WRAP_POST(NAME, BYTES, COMM, REQ, ...)                                 \
    void *ra_ = __builtin_return_address(0);                                   \
    double t0_ = now();                                                        \
    int rc_ = P##NAME(__VA_ARGS__);                                            \
    double t1_ = now();                                                        \
    record(ra_, #NAME, t0_, t1_, (BYTES), (COMM));                             \
    if (rc_ == MPI_SUCCESS) post(ra_, *(REQ));                                 \
    return rc_

/* Bytes of a v collective at an MPI_IN_PLACE rank (gatherv's root,
 * scatterv's root): its own block, its entry of the root's counts. */
static double rank_block(const int counts[], MPI_Datatype type, MPI_Comm comm)
{
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    return counts != NULL ? type_bytes(type, counts[rank]) : 0;
}

/* The wrappers of the calls that communicate and have a TMPI_ARGS row in
 * the MPI call table (point-to-point, posts, collectives and their
 * nonblocking forms, MPI 4.0's _c forms), generated from the table by
 * scripts/gen-mpi-wrappers.py: the signature of each from its TMPI_FN row,
 * the bytes (docs/advise.md), communicator and request from the argument
 * positions of its TMPI_ARGS row. The calls below are written by hand. */
#include "profile_wrappers.inc"

/* Completion: no bytes, no communicator. Each keeps the handles it is
 * given (completion sets them to MPI_REQUEST_NULL) and hands its time to
 * the post sites of the requests it completed. Written by hand: which
 * requests completed is read from each call's own outputs (index, indices,
 * flag), which the table does not describe. */
#define KEEP(N, REQS)                                                          \
    void *ra_ = __builtin_return_address(0);                                   \
    int n_ = (N) > 0 ? (N) : 0;                                                \
    uint64_t small_[16], *before_ = n_ <= 16 ? small_ : malloc(sizeof(uint64_t) * (size_t)n_); \
    char smalld_[16], *done_ = n_ <= 16 ? smalld_ : calloc((size_t)n_, 1);     \
    if (before_ == NULL || done_ == NULL) n_ = 0;                              \
    for (int i_ = 0; i_ < n_; i_++) {                                          \
        before_[i_] = req_key((REQS)[i_]);                                     \
        done_[i_] = 0;                                                         \
    }                                                                          \
    double t0_ = now();                                                        \
    int rc_ =
#define DONE(NAME)                                                             \
    double t1_ = now();                                                        \
    record(ra_, #NAME, t0_, t1_, 0, MPI_COMM_NULL);                            \
    completed(ra_, t1_ - t0_, n_, before_, done_);                             \
    if (before_ != small_) free(before_);                                      \
    if (done_ != smalld_) free(done_);                                         \
    return rc_

/* MPI_Waitsome and MPI_Testsome: the outcount requests of indices[] are
 * done (of n; none when outcount is MPI_UNDEFINED). */
static void mark_indices(int outcount, const int indices[], int n, char *done)
{
    for (int i = 0; outcount != MPI_UNDEFINED && i < outcount; i++)
        if (indices[i] >= 0 && indices[i] < n) done[indices[i]] = 1;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    KEEP(1, req) PMPI_Wait(req, status);
    if (rc_ == MPI_SUCCESS && n_) done_[0] = 1;
    DONE(MPI_Wait);
}
int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    KEEP(n, reqs) PMPI_Waitall(n, reqs, statuses);
    for (int i = 0; i < n_ && rc_ == MPI_SUCCESS; i++) done_[i] = 1;
    DONE(MPI_Waitall);
}
int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    KEEP(n, reqs) PMPI_Waitany(n, reqs, index, status);
    if (rc_ == MPI_SUCCESS && *index >= 0 && *index < n_) done_[*index] = 1;
    DONE(MPI_Waitany);
}
int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    KEEP(n, reqs) PMPI_Waitsome(n, reqs, outcount, indices, statuses);
    if (rc_ == MPI_SUCCESS) mark_indices(*outcount, indices, n_, done_);
    DONE(MPI_Waitsome);
}
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    KEEP(1, req) PMPI_Test(req, flag, status);
    if (rc_ == MPI_SUCCESS && *flag && n_) done_[0] = 1;
    DONE(MPI_Test);
}
int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    KEEP(n, reqs) PMPI_Testall(n, reqs, flag, statuses);
    for (int i = 0; i < n_ && rc_ == MPI_SUCCESS && *flag; i++) done_[i] = 1;
    DONE(MPI_Testall);
}
int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    KEEP(n, reqs) PMPI_Testany(n, reqs, index, flag, status);
    if (rc_ == MPI_SUCCESS && *flag && *index >= 0 && *index < n_) done_[*index] = 1;
    DONE(MPI_Testany);
}
int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    KEEP(n, reqs) PMPI_Testsome(n, reqs, outcount, indices, statuses);
    if (rc_ == MPI_SUCCESS) mark_indices(*outcount, indices, n_, done_);
    DONE(MPI_Testsome);
}
/* A freed request is no longer ours to follow. */
int MPI_Request_free(MPI_Request *req)
{
    struct tucana_advise_rank *r = my_rank();
    if (r != NULL && req != NULL && *req != MPI_REQUEST_NULL) {
        pthread_mutex_lock(&r->lock);
        struct tucana_advise_req *q = req_find(r, req_key(*req));
        if (q != NULL) q->key = kTombstone;
        pthread_mutex_unlock(&r->lock);
    }
    return PMPI_Request_free(req);
}

/* MPI_Alltoallw: a type per rank, which its TMPI_ARGS row cannot give (its
 * buffers have no type position): the sum of count x type size over the
 * ranks; MPI_IN_PLACE: the receive side's. */
static double w_bytes(const void *sendbuf, const int counts[], const MPI_Datatype types[],
                      const int rcounts[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    int size = comm_size_of(comm);
    double n = 0;
    if (sendbuf == MPI_IN_PLACE) {
        counts = rcounts;
        types = rtypes;
    }
    if (counts == NULL || types == NULL) return 0;
    for (int i = 0; i < size; i++) n += type_bytes(types[i], counts[i]);
    return n;
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const
                  MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int
                  rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    WRAP(MPI_Alltoallw, w_bytes(sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm),
         comm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
         comm);
}
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const
                   MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int
                   rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *req)
{
    WRAP_POST(MPI_Ialltoallw, w_bytes(sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm),
              comm, req, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
              recvtypes, comm, req);
}

/* ------------------------------------------------ MPI 4: MPICH and others */

/* MPI_Isendrecv[_replace] have no TMPI_ARGS row (the translator does not
 * analyse them): the send side's count x type size. */
#if MPI_VERSION >= 4
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Request *req)
{
    WRAP_POST(MPI_Isendrecv, type_bytes(sendtype, sendcount), comm, req, sendbuf, sendcount,
              sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, req);
}
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Request *req)
{
    WRAP_POST(MPI_Isendrecv_replace, type_bytes(type, count), comm, req, buf, count, type, dest,
              sendtag, source, recvtag, comm, req);
}
#endif /* MPI_VERSION >= 4 */
