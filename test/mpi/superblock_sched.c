/* superblock_sched.c -- the superblock interface (tucana/superblock.h)
 * called directly, as translated code calls it, with static descriptor
 * tables:
 *   (a) priorities: among the ready regions of the subranks of one process,
 *       the highest priority runs first (FIFO among equals);
 *   (b) a region of negative priority yields at its end: the other ready
 *       subranks run before its next region;
 *   (c) tucana_sb_recv/send/sendrecv in regions: a ring exchange, posted as
 *       requests and consumed by a region that depends on them: the data
 *       and the status (MPI_SOURCE, MPI_TAG, count) are there, also for a
 *       non-contiguous type; tucana_sb_end waits for a request no region
 *       depends on; a superblock of zero iterations; outside a region
 *       tucana_sb_recv/send block;
 *   (d) Bamboo's Table-1 pattern: every rank receives from the left with
 *       tucana_sb_recv, then sends to the right with tucana_sb_send
 *       (messages beyond the eager limit), then computes: no deadlock.
 * (a) and (b) check the order only with one worker per process (the layout
 * says so through TUCANA_WORKERS), where the schedule is deterministic and
 * the subranks of a process share one ready queue; with the fifo policy
 * (TUCANA_POLICY=fifo) (a) expects the wake-up order. Tucana only (no
 * reference run). */
#define TESTNAME "superblock_sched"
#include "mpitest.h"

#include <tucana/superblock.h>

enum { TAG_HERE = 100, TAG_GO = 101 };

static int one_worker(void)
{
    const char *w = getenv("TUCANA_WORKERS");
    return w == NULL || strcmp(w, "1") == 0;
}

static int fifo_policy(void)
{
    const char *p = getenv("TUCANA_POLICY");
    return p != NULL && strcmp(p, "fifo") == 0;
}

/* The log the subranks of a process write in the order they run (they
 * share the address space: node rank 0 allocates it and broadcasts where). */
typedef struct {
    int n;
    int entries[256];
} order_log;

static void log_entry(order_log *log, int value)
{
    int at = __atomic_fetch_add(&log->n, 1, __ATOMIC_SEQ_CST);
    if (at < 256)
        log->entries[at] = value;
}

static order_log *shared_log(MPI_Comm node)
{
    int nrank;
    MPI_Comm_rank(node, &nrank);
    order_log *log = NULL;
    if (nrank == 0) {
        log = xmalloc(sizeof *log);
        memset(log, 0, sizeof *log);
    }
    MPI_Aint where = (MPI_Aint)log;
    MPI_Bcast(&where, 1, MPI_AINT, 0, node);
    return (order_log *)where;
}

/* ---- (a) and (b): subranks 0..n-2 of a process wait in their superblock
 * (region "go" receives a message from subrank n-1, the releaser; the
 * regions after it depend on it); once every one of them waits, the
 * releaser wakes them all, in node rank order, and parks. ---- */

static const tucana_dependency deps_on_go[] = {{0, 0}};
static const tucana_dependency deps_on_first[] = {{1, 0}};
static const tucana_region_desc prio_regions[] = {
    {"go", TUCANA_REGION_RECEIVE, 0, NULL},
    {"work", TUCANA_REGION_COMPUTE, 1, deps_on_go},
};
static const tucana_superblock_desc prio_desc = {"superblock_sched.c:prio", 2, prio_regions};

static const tucana_region_desc yield_regions[] = {
    {"go", TUCANA_REGION_RECEIVE, 0, NULL},
    {"first", TUCANA_REGION_COMPUTE, 1, deps_on_go},
    {"second", TUCANA_REGION_COMPUTE, 1, deps_on_first},
};
static const tucana_superblock_desc yield_desc = {"superblock_sched.c:yield", 3, yield_regions};

/* The "go" region: posts the receive of the release and tells the releaser
 * that this subrank is about to wait for it. */
static void go_region(MPI_Comm node, int releaser, int *token)
{
    /* Static: the send is non-blocking (the superblock completes it later),
     * so its buffer must outlive this function. */
    static const int here = 1;
    tucana_sb_recv(token, 1, MPI_INT, releaser, TAG_GO, node, MPI_STATUS_IGNORE);
    tucana_sb_send(&here, 1, MPI_INT, releaser, TAG_HERE, node);
}

/* The releaser: once every waiter has said it is here (it has posted its
 * receive and goes on to wait in tucana_sb_next: one worker, no preemption),
 * sends every waiter its release in node rank order, then parks in the
 * barrier so that the worker runs the waiters. */
static void release_all(MPI_Comm node, int n)
{
    int here, go = 7;
    for (int i = 0; i < n - 1; ++i)
        MPI_Recv(&here, 1, MPI_INT, MPI_ANY_SOURCE, TAG_HERE, node, MPI_STATUS_IGNORE);
    for (int i = 0; i < n - 1; ++i)
        MPI_Send(&go, 1, MPI_INT, i, TAG_GO, node);
}

static void test_priorities(MPI_Comm node)
{
    int nrank, n;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &n);
    order_log *log = shared_log(node);
    int releaser = n - 1;
    /* The last waiter woken has the high priority: FIFO alone would run it last. */
    int favoured = n - 2;
    if (n >= 2 && nrank != releaser) {
        int token = 0;
        tucana_superblock *sb = tucana_sb_begin(&prio_desc);
        tucana_sb_priority(sb, 1, nrank == favoured ? 5 : 0);
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0:
                go_region(node, releaser, &token);
                tucana_sb_ran(sb, 0);
                break;
            case 1:
                CHECK(7, token, "(a) the release message is there when region work runs");
                log_entry(log, nrank);
                tucana_sb_ran(sb, 1);
                break;
            }
        }
        tucana_sb_end(sb);
    } else if (n >= 2) {
        release_all(node, n);
    }
    MPI_Barrier(node);
    if (nrank == 0 && n >= 2) {
        CHECK(n - 1, log->n, "(a) every waiter ran region work once");
        if (one_worker()) {
            if (fifo_policy()) {
                for (int i = 0; i < n - 1; ++i)
                    CHECK(i, log->entries[i], "(a) fifo policy: run %d is the subrank woken %d-th", i, i);
            } else {
                CHECK(favoured, log->entries[0], "(a) the priority-5 region runs first");
                for (int i = 1; i < n - 1; ++i)
                    CHECK(i - 1, log->entries[i], "(a) then the priority-0 ones in wake-up order (run %d)", i);
            }
        }
    }
    MPI_Barrier(node);
    if (nrank == 0)
        free(log);
}

static void test_negative_priority_yields(MPI_Comm node)
{
    int nrank, n;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &n);
    order_log *log = shared_log(node);
    int releaser = n - 1;
    if (n >= 2 && nrank != releaser) {
        int token = 0;
        tucana_superblock *sb = tucana_sb_begin(&yield_desc);
        tucana_sb_priority(sb, 1, -1);
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0:
                go_region(node, releaser, &token);
                tucana_sb_ran(sb, 0);
                break;
            case 1:
                log_entry(log, 2 * nrank);
                tucana_sb_ran(sb, 1); /* negative priority: yields here */
                break;
            case 2:
                log_entry(log, 2 * nrank + 1);
                tucana_sb_ran(sb, 2);
                break;
            }
        }
        tucana_sb_end(sb);
    } else if (n >= 2) {
        release_all(node, n);
    }
    MPI_Barrier(node);
    if (nrank == 0 && n >= 2) {
        int w = n - 1;
        CHECK(2 * w, log->n, "(b) every waiter ran both regions");
        if (one_worker()) {
            /* Each "first" (priority -1) yields at its end: every "first"
             * runs before any "second" (without the rule each subrank would
             * run both in a row). Only the phases are checked: a subrank
             * about to run "first" also lets those queued at priority 0
             * (whose "second" is still to run) go before it, which makes
             * the order among subranks a detail of the priority rules. */
            int seen[256] = {0};
            for (int i = 0; i < w; ++i) {
                int e = log->entries[i];
                CHECK(0, e % 2, "(b) run %d is a region first (got subrank %d's)", i, e / 2);
                CHECK(0, seen[e / 2]++, "(b) subrank %d runs region first once", e / 2);
            }
            for (int i = w; i < 2 * w; ++i)
                CHECK(1, log->entries[i] % 2, "(b) run %d is a region second", i);
        }
    }
    MPI_Barrier(node);
    if (nrank == 0)
        free(log);
}

/* ---- (c) a ring with reinterpreted blocking calls ---- */

enum { RING_ITERS = 12, RING_MAX = 64 };

static const tucana_dependency ring_recv_deps[] = {{2, 1}};
static const tucana_dependency ring_send_deps[] = {{2, 1}};
static const tucana_dependency ring_compute_deps[] = {{0, 0}, {1, 0}};
static const tucana_region_desc ring_regions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 1, ring_recv_deps},
    {"send", TUCANA_REGION_SEND, 1, ring_send_deps},
    {"compute", TUCANA_REGION_COMPUTE, 2, ring_compute_deps},
};
static const tucana_superblock_desc ring_desc = {"superblock_sched.c:ring", 3, ring_regions};

static int ring_value(int rank, int iter, int k) { return rank * 100000 + iter * 100 + k; }

static void test_ring(void)
{
    int rank = wrank, size = wsize;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in[RING_MAX], out[RING_MAX];
    /* Every other element of a strided buffer: a non-contiguous type. */
    int strided_in[2 * RING_MAX], strided_out[RING_MAX];
    MPI_Datatype every_other;
    MPI_Type_vector(RING_MAX, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Status st, st2;
    int iter = 0;
    int count = 1;
    for (int k = 0; k < RING_MAX; ++k) {
        out[k] = ring_value(rank, 0, k);
        strided_out[k] = -ring_value(rank, 0, k);
    }
    tucana_superblock *sb = tucana_sb_begin(&ring_desc);
    for (iter = 0; iter < RING_ITERS; ++iter) {
        count = 1 + iter % 5;
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0:
                memset(&st, 0xff, sizeof st);
                memset(&st2, 0xff, sizeof st2);
                for (int k = 0; k < 2 * RING_MAX; ++k)
                    strided_in[k] = 0;
                tucana_sb_recv(in, RING_MAX, MPI_INT, left, iter, MPI_COMM_WORLD, &st);
                tucana_sb_recv(strided_in, 1, every_other, left, 1000 + iter, MPI_COMM_WORLD, &st2);
                tucana_sb_ran(sb, 0);
                break;
            case 1:
                tucana_sb_send(out, count, MPI_INT, right, iter, MPI_COMM_WORLD);
                tucana_sb_send(strided_out, RING_MAX, MPI_INT, right, 1000 + iter, MPI_COMM_WORLD);
                tucana_sb_ran(sb, 1);
                break;
            case 2: {
                int got = -1;
                CHECK(left, st.MPI_SOURCE, "(c) iteration %d: status MPI_SOURCE", iter);
                CHECK(iter, st.MPI_TAG, "(c) iteration %d: status MPI_TAG", iter);
                MPI_Get_count(&st, MPI_INT, &got);
                CHECK(count, got, "(c) iteration %d: status count", iter);
                for (int k = 0; k < count; ++k)
                    CHECK(ring_value(left, iter, k), in[k], "(c) iteration %d: element %d from the left", iter, k);
                CHECK(left, st2.MPI_SOURCE, "(c) iteration %d: strided status MPI_SOURCE", iter);
                CHECK(1000 + iter, st2.MPI_TAG, "(c) iteration %d: strided status MPI_TAG", iter);
                MPI_Get_count(&st2, every_other, &got);
                CHECK(1, got, "(c) iteration %d: strided status count", iter);
                for (int k = 0; k < RING_MAX; ++k) {
                    CHECK(-ring_value(left, iter, k), strided_in[2 * k], "(c) iteration %d: strided element %d", iter, k);
                    CHECK(0, strided_in[2 * k + 1], "(c) iteration %d: gap %d untouched", iter, k);
                }
                for (int k = 0; k < RING_MAX; ++k) {
                    out[k] = ring_value(rank, iter + 1, k);
                    strided_out[k] = -ring_value(rank, iter + 1, k);
                }
                tucana_sb_ran(sb, 2);
                break;
            }
            }
        }
    }
    tucana_sb_end(sb);
    CHECK(RING_ITERS, iter, "(c) the loop's own header ran every iteration");
    MPI_Type_free(&every_other);
}

/* A { } block run once: sendrecv in one region, the check in a region that
 * depends on it; then a region whose receive nobody depends on (the end
 * waits for it); then a superblock of zero iterations. */
static const tucana_region_desc sendrecv_regions[] = {
    {"exchange", TUCANA_REGION_OTHER, 0, NULL},
    {"check", TUCANA_REGION_COMPUTE, 1, deps_on_go},
};
static const tucana_superblock_desc sendrecv_desc = {"superblock_sched.c:sendrecv", 2, sendrecv_regions};
static const tucana_region_desc lone_regions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 0, NULL},
    {"send", TUCANA_REGION_SEND, 0, NULL},
};
static const tucana_superblock_desc lone_desc = {"superblock_sched.c:lone", 2, lone_regions};

static void test_block_once(void)
{
    int rank = wrank, size = wsize;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int mine[3] = {rank, rank + 1, rank + 2}, theirs[3] = {-1, -1, -1};
    MPI_Status st;
    int regions_run = 0;
    tucana_superblock *sb = tucana_sb_begin(&sendrecv_desc);
    for (int r; (r = tucana_sb_next(sb)) >= 0;) {
        switch (r) {
        case 0:
            tucana_sb_sendrecv(mine, 3, MPI_INT, right, 5, theirs, 3, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
            ++regions_run;
            tucana_sb_ran(sb, 0);
            break;
        case 1: {
            int got = -1;
            for (int k = 0; k < 3; ++k)
                CHECK(left + k, theirs[k], "(c) sendrecv: element %d", k);
            CHECK(left, st.MPI_SOURCE, "(c) sendrecv: status MPI_SOURCE");
            CHECK(5, st.MPI_TAG, "(c) sendrecv: status MPI_TAG");
            MPI_Get_count(&st, MPI_INT, &got);
            CHECK(3, got, "(c) sendrecv: status count");
            ++regions_run;
            tucana_sb_ran(sb, 1);
            break;
        }
        }
    }
    tucana_sb_end(sb);
    CHECK(2, regions_run, "(c) a block runs each region once");

    /* Nobody depends on the receive: tucana_sb_end waits for it. */
    int lone = -1;
    MPI_Status lone_st;
    sb = tucana_sb_begin(&lone_desc);
    for (int r; (r = tucana_sb_next(sb)) >= 0;) {
        if (r == 0)
            tucana_sb_recv(&lone, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &lone_st);
        else
            tucana_sb_send(&mine[0], 1, MPI_INT, right, 6, MPI_COMM_WORLD);
        tucana_sb_ran(sb, r);
    }
    tucana_sb_end(sb);
    CHECK(left, lone, "(c) after tucana_sb_end the receive has completed");
    CHECK(6, lone_st.MPI_TAG, "(c) after tucana_sb_end the status is filled");

    /* Zero iterations: begin, then end. */
    sb = tucana_sb_begin(&ring_desc);
    for (int i = 0; i < 0; ++i)
        for (int r; (r = tucana_sb_next(sb)) >= 0;)
            tucana_sb_ran(sb, r);
    tucana_sb_end(sb);

    /* Outside regions the calls block (no superblock, or between regions). */
    int a = -1;
    MPI_Status ost;
    if (rank % 2 == 0) {
        tucana_sb_send(&mine[0], 1, MPI_INT, right, 7, MPI_COMM_WORLD);
        tucana_sb_recv(&a, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &ost);
    } else {
        tucana_sb_recv(&a, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &ost);
        tucana_sb_send(&mine[0], 1, MPI_INT, right, 7, MPI_COMM_WORLD);
    }
    CHECK(left, a, "(c) blocking tucana_sb_recv outside regions: data");
    CHECK(left, ost.MPI_SOURCE, "(c) blocking tucana_sb_recv outside regions: status");
}

/* ---- (d) Bamboo's Table 1: receive first, then send, then compute ---- */

enum { BIG = 100000, TABLE1_ITERS = 4 }; /* 800 kB of doubles: beyond the eager limit */

static const tucana_dependency t1_recv_deps[] = {{2, 1}};
static const tucana_dependency t1_send_deps[] = {{2, 1}};
static const tucana_dependency t1_compute_deps[] = {{0, 0}, {1, 0}};
static const tucana_region_desc t1_regions[] = {
    {"receive", TUCANA_REGION_RECEIVE, 1, t1_recv_deps},
    {"send", TUCANA_REGION_SEND, 1, t1_send_deps},
    {"compute", TUCANA_REGION_COMPUTE, 2, t1_compute_deps},
};
static const tucana_superblock_desc t1_desc = {"superblock_sched.c:table1", 3, t1_regions};

static void test_table1(void)
{
    int rank = wrank, size = wsize;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    double *in = xmalloc(BIG * sizeof(double)), *out = xmalloc(BIG * sizeof(double));
    double sum = 0;
    for (int k = 0; k < BIG; ++k)
        out[k] = rank;
    tucana_superblock *sb = tucana_sb_begin(&t1_desc);
    for (int iter = 0; iter < TABLE1_ITERS; ++iter) {
        for (int r; (r = tucana_sb_next(sb)) >= 0;) {
            switch (r) {
            case 0: /* MPI_Recv(in, ..., left): blocking under plain MPI */
                tucana_sb_recv(in, BIG, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                tucana_sb_ran(sb, 0);
                break;
            case 1: /* MPI_Send(out, ..., right) */
                tucana_sb_send(out, BIG, MPI_DOUBLE, right, 9, MPI_COMM_WORLD);
                tucana_sb_ran(sb, 1);
                break;
            case 2:
                CHECK(left + iter * size, (long long)in[0], "(d) iteration %d: first element", iter);
                CHECK(left + iter * size, (long long)in[BIG - 1], "(d) iteration %d: last element", iter);
                sum += in[BIG / 2];
                for (int k = 0; k < BIG; ++k)
                    out[k] = rank + (iter + 1) * size;
                tucana_sb_ran(sb, 2);
                break;
            }
        }
    }
    tucana_sb_end(sb);
    long long want = 0;
    for (int iter = 0; iter < TABLE1_ITERS; ++iter)
        want += left + iter * size;
    CHECK(want, (long long)sum, "(d) the sum of what came from the left");
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    test_priorities(node);
    test_negative_priority_yields(node);
    MPI_Barrier(MPI_COMM_WORLD);
    test_ring();
    test_block_once();
    test_table1();
    MPI_Comm_free(&node);
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
