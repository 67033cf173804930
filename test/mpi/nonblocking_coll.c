/*
 * nonblocking_coll -- non-blocking collectives (MPI-3.1 sec. 5.12) and
 * MPI_Alltoallw (sec. 5.8).
 *
 *  1. Each of MPI_Ibarrier, Ibcast, Ireduce, Iallreduce, Igather, Igatherv,
 *     Iscatter, Iscatterv, Iallgather, Iallgatherv, Ialltoall, Ialltoallv,
 *     Ireduce_scatter_block, Ireduce_scatter, Iscan and Iexscan, started
 *     and waited for one at a time, gives the same result as its blocking
 *     counterpart and as the value computed here (every root for the rooted
 *     ones; counts 1 and 3000; v-variants with zero counts and shuffled
 *     displacements; Iexscan's result on rank 0 is undefined and ignored).
 *  2. All sixteen outstanding at once on one communicator, started in the
 *     same order everywhere and completed with MPI_Waitall over the requests
 *     in reverse order; then with MPI_Wait one by one in reverse order; then
 *     with MPI_Waitany; then with a MPI_Testall/MPI_Testsome polling loop.
 *  3. Two communicators (world and a dup): even ranks start their world
 *     collectives before their dup collectives, odd ranks the other way
 *     round (the order on each communicator is the same everywhere); one
 *     MPI_Waitall.
 *  4. MPI_Test polling loops on MPI_Iallreduce and MPI_Ibarrier.
 *  5. Point-to-point on the same communicator: MPI_Irecv (also with
 *     MPI_ANY_SOURCE/MPI_ANY_TAG) and MPI_Isend posted before an
 *     MPI_Iallreduce and an MPI_Ibcast, waited for after them; the wildcard
 *     receive gets the point-to-point message, the collectives their data.
 *  6. MPI_IN_PLACE with MPI_Iallreduce, MPI_Iallgather, MPI_Ireduce (root),
 *     MPI_Igather (root) and MPI_Iscan.
 *  7. MPI_Alltoallw with a different datatype per peer on both sides
 *     (MPI_INT x n, contiguous(n), vector(n, 1, 2) / vector(n, 1, 3) with
 *     holes), pair-dependent counts (some zero) and byte displacements;
 *     holes and gaps stay untouched.
 *  8. 200 rounds of MPI_Ibarrier + MPI_Iallreduce (helper fibers reused);
 *     under Tucana also a communicator freed while an MPI_Iallreduce on it
 *     is pending, with a new communicator's MPI_Allreduce in between.
 *
 * Works for any world size >= 1.  Prints "OK nonblocking_coll" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "nonblocking_coll"
#include "mpitest.h"

#define CHECK_ARRAY(exp, got, n, ...)                                     \
    do {                                                                  \
        for (long k_ = 0; k_ < (long)(n); k_++) {                         \
            if ((exp)[k_] != (got)[k_]) {                                 \
                char c_[256], d_[300];                                    \
                snprintf(c_, sizeof c_, __VA_ARGS__);                     \
                snprintf(d_, sizeof d_, "%s element %ld", c_, k_);        \
                fail(d_, (long long)(exp)[k_], (long long)(got)[k_],      \
                     __LINE__);                                           \
            }                                                             \
        }                                                                 \
    } while (0)

#define POISON (-777)
#define GUARD 4

static void fill(int *b, long n, int v)
{
    for (long i = 0; i < n; i++)
        b[i] = v;
}

static void filll(long long *b, long n, long long v)
{
    for (long i = 0; i < n; i++)
        b[i] = v;
}

/* a deterministic value in 0..2^31-2 from four small integers */
static int hv(int a, int b, int c, int d)
{
    unsigned long long x = (unsigned long long)(unsigned)a * 1000003ULL + (unsigned)b;
    x = x * 1000033ULL + (unsigned)c;
    x = x * 999983ULL + (unsigned)d;
    return (int)(x % 2147483647ULL);
}

/* small values for the reductions (sums of 16 stay far from overflow) */
static int sv(int a, int b, int c) { return hv(a, b, c, 17) % 20001 - 10000; }

/* rank-dependent count (zero for some ranks) */
static int vcount(int r, int n, int key) { return ((r + key) % 3 == 1) ? 0 : 1 + (r * 5 + key) % n; }
static int pcount(int s, int d, int n, int key) { return (s * 3 + d * 5 + key) % 4 == 0 ? 0 : 1 + (s + 2 * d + key) % n; }

/* ----------------------------------------------------- one set of collectives */

enum {
    OP_BARRIER, OP_BCAST, OP_REDUCE, OP_ALLREDUCE, OP_GATHER, OP_GATHERV, OP_SCATTER,
    OP_SCATTERV, OP_ALLGATHER, OP_ALLGATHERV, OP_ALLTOALL, OP_ALLTOALLV, OP_RSB, OP_RS,
    OP_SCAN, OP_EXSCAN, NOPS
};
static const char *opname[NOPS] = {
    "Ibarrier", "Ibcast", "Ireduce", "Iallreduce", "Igather", "Igatherv", "Iscatter",
    "Iscatterv", "Iallgather", "Iallgatherv", "Ialltoall", "Ialltoallv",
    "Ireduce_scatter_block", "Ireduce_scatter", "Iscan", "Iexscan"};

struct set {
    MPI_Comm comm;
    int rank, size, n, key, root;
    int *bc;                      /* n + GUARD */
    long long *red_s, *red_r;     /* n + GUARD */
    long long *ar_s, *ar_r;       /* n + GUARD */
    int *g_s, *g_r;               /* n ; size*n + GUARD */
    int *gv_c, *gv_d, *gv_r;      /* size ; size ; gtot + GUARD */
    long gtot, a2v_rtot;          /* lengths of the v-variant layouts */
    int *sc_s, *sc_r;             /* size*n ; n + GUARD */
    int *sv_s, *sv_r;             /* cap ; n + GUARD */
    int *ag_r, *agv_r;            /* size*n + GUARD ; cap */
    int *a2_s, *a2_r;             /* size*n each (+GUARD) */
    int *a2v_sc, *a2v_sd, *a2v_rc, *a2v_rd, *a2v_s, *a2v_r;
    int *rsb_s, *rsb_r;           /* size*n ; n + GUARD */
    int *rs_c, *rs_s, *rs_r;      /* size ; total ; n + GUARD */
    long long *scan_s, *scan_r, *exscan_r; /* n (+GUARD) */
};

static long vlayout(const int *counts, int n, int key, int *displs)
{
    /* odd ranks descending, then even ranks ascending, gap after some */
    long off = 0;
    for (int j = n - 1; j >= 0; j--)
        if (j % 2 == 1) {
            displs[j] = (int)off;
            off += counts[j] + (j + key) % 2;
        }
    for (int j = 0; j < n; j++)
        if (j % 2 == 0) {
            displs[j] = (int)off;
            off += counts[j] + (j + key) % 2;
        }
    return off;
}

static void set_init(struct set *s, MPI_Comm comm, int n, int key, int root)
{
    int size, rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    s->comm = comm;
    s->rank = rank;
    s->size = size;
    s->n = n;
    s->key = key;
    s->root = root;
    long sn = (long)size * n;
    size_t I = sizeof(int), L = sizeof(long long);

    s->bc = xmalloc(I * (size_t)(n + GUARD));
    s->red_s = xmalloc(L * (size_t)n);
    s->red_r = xmalloc(L * (size_t)(n + GUARD));
    s->ar_s = xmalloc(L * (size_t)n);
    s->ar_r = xmalloc(L * (size_t)(n + GUARD));
    s->g_s = xmalloc(I * (size_t)n);
    s->g_r = xmalloc(I * (size_t)(sn + GUARD));
    s->gv_c = xmalloc(I * (size_t)size);
    s->gv_d = xmalloc(I * (size_t)size);
    s->sc_s = xmalloc(I * (size_t)sn);
    s->sc_r = xmalloc(I * (size_t)(n + GUARD));
    s->sv_r = xmalloc(I * (size_t)(n + GUARD));
    s->ag_r = xmalloc(I * (size_t)(sn + GUARD));
    s->a2_s = xmalloc(I * (size_t)sn);
    s->a2_r = xmalloc(I * (size_t)(sn + GUARD));
    s->a2v_sc = xmalloc(I * (size_t)size);
    s->a2v_sd = xmalloc(I * (size_t)size);
    s->a2v_rc = xmalloc(I * (size_t)size);
    s->a2v_rd = xmalloc(I * (size_t)size);
    s->rsb_s = xmalloc(I * (size_t)sn);
    s->rsb_r = xmalloc(I * (size_t)(n + GUARD));
    s->rs_c = xmalloc(I * (size_t)size);
    s->scan_s = xmalloc(L * (size_t)n);
    s->scan_r = xmalloc(L * (size_t)(n + GUARD));
    s->exscan_r = xmalloc(L * (size_t)(n + GUARD));

    /* v-variant layouts */
    for (int r = 0; r < size; r++)
        s->gv_c[r] = vcount(r, n, key);
    long gtot = vlayout(s->gv_c, size, key, s->gv_d);
    s->gtot = gtot;
    s->gv_r = xmalloc(I * (size_t)(gtot + GUARD));
    s->sv_s = xmalloc(I * (size_t)(gtot + GUARD));
    s->agv_r = xmalloc(I * (size_t)(gtot + GUARD));
    for (int r = 0; r < size; r++) {
        s->a2v_sc[r] = pcount(rank, r, n, key);
        s->a2v_rc[r] = pcount(r, rank, n, key);
    }
    long stot = vlayout(s->a2v_sc, size, key + 1, s->a2v_sd);
    long rtot = vlayout(s->a2v_rc, size, key, s->a2v_rd);
    s->a2v_rtot = rtot;
    s->a2v_s = xmalloc(I * (size_t)(stot + GUARD));
    s->a2v_r = xmalloc(I * (size_t)(rtot + GUARD));
    long rstot = 0;
    for (int r = 0; r < size; r++) {
        s->rs_c[r] = vcount(r, n, key + 1);
        rstot += s->rs_c[r];
    }
    s->rs_s = xmalloc(I * (size_t)(rstot + 1));
    s->rs_r = xmalloc(I * (size_t)(n + GUARD));

    /* contents */
    fill(s->bc, n + GUARD, POISON);
    if (rank == root)
        for (int i = 0; i < n; i++)
            s->bc[i] = hv(1, key, root, i);
    for (int i = 0; i < n; i++) {
        s->red_s[i] = sv(rank, key, i);
        s->ar_s[i] = sv(rank, key + 1, i);
        s->g_s[i] = hv(2, key, rank, i);
        s->scan_s[i] = sv(rank, key + 2, i);
    }
    filll(s->red_r, n + GUARD, POISON);
    filll(s->ar_r, n + GUARD, POISON);
    fill(s->g_r, sn + GUARD, POISON);
    fill(s->gv_r, gtot + GUARD, POISON);
    for (long k = 0; k < sn; k++)
        s->sc_s[k] = rank == root ? hv(3, key, root, (int)k) : POISON;
    fill(s->sc_r, n + GUARD, POISON);
    fill(s->sv_s, gtot + GUARD, POISON);
    if (rank == root)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < s->gv_c[r]; i++)
                s->sv_s[s->gv_d[r] + i] = hv(4, key, r, i);
    fill(s->sv_r, n + GUARD, POISON);
    fill(s->ag_r, sn + GUARD, POISON);
    fill(s->agv_r, gtot + GUARD, POISON);
    for (int d = 0; d < size; d++)
        for (int i = 0; i < n; i++)
            s->a2_s[(long)d * n + i] = hv(5 + key, rank, d, i);
    fill(s->a2_r, sn + GUARD, POISON);
    fill(s->a2v_s, stot + GUARD, POISON);
    for (int d = 0; d < size; d++)
        for (int i = 0; i < s->a2v_sc[d]; i++)
            s->a2v_s[s->a2v_sd[d] + i] = hv(6 + key, rank, d, i);
    fill(s->a2v_r, rtot + GUARD, POISON);
    for (long k = 0; k < sn; k++)
        s->rsb_s[k] = sv(rank, key + 3, (int)k);
    fill(s->rsb_r, n + GUARD, POISON);
    for (long k = 0; k < rstot; k++)
        s->rs_s[k] = sv(rank, key + 4, (int)k);
    fill(s->rs_r, n + GUARD, POISON);
    filll(s->scan_r, n + GUARD, POISON);
    filll(s->exscan_r, n + GUARD, POISON);
}

static void set_free(struct set *s)
{
    void *p[] = {s->bc, s->red_s, s->red_r, s->ar_s, s->ar_r, s->g_s, s->g_r, s->gv_c, s->gv_d,
                 s->gv_r, s->sc_s, s->sc_r, s->sv_s, s->sv_r, s->ag_r, s->agv_r, s->a2_s,
                 s->a2_r, s->a2v_sc, s->a2v_sd, s->a2v_rc, s->a2v_rd, s->a2v_s, s->a2v_r,
                 s->rsb_s, s->rsb_r, s->rs_c, s->rs_s, s->rs_r, s->scan_s, s->scan_r,
                 s->exscan_r};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
}

/* Start (or, with blocking != 0, run) operation op of the set. */
static void set_op(struct set *s, int op, int blocking, MPI_Request *req)
{
    MPI_Comm c = s->comm;
    int n = s->n, root = s->root;
    const void *gsend = s->g_s;
    *req = MPI_REQUEST_NULL;
#define GO(bcall, icall) do { if (blocking) bcall; else icall; } while (0)
    switch (op) {
    case OP_BARRIER:
        GO(MPI_Barrier(c), MPI_Ibarrier(c, req));
        break;
    case OP_BCAST:
        GO(MPI_Bcast(s->bc, n, MPI_INT, root, c), MPI_Ibcast(s->bc, n, MPI_INT, root, c, req));
        break;
    case OP_REDUCE:
        GO(MPI_Reduce(s->red_s, s->red_r, n, MPI_LONG_LONG, MPI_SUM, root, c),
           MPI_Ireduce(s->red_s, s->red_r, n, MPI_LONG_LONG, MPI_SUM, root, c, req));
        break;
    case OP_ALLREDUCE:
        GO(MPI_Allreduce(s->ar_s, s->ar_r, n, MPI_LONG_LONG, MPI_MAX, c),
           MPI_Iallreduce(s->ar_s, s->ar_r, n, MPI_LONG_LONG, MPI_MAX, c, req));
        break;
    case OP_GATHER:
        GO(MPI_Gather(gsend, n, MPI_INT, s->g_r, n, MPI_INT, root, c),
           MPI_Igather(gsend, n, MPI_INT, s->g_r, n, MPI_INT, root, c, req));
        break;
    case OP_GATHERV:
        GO(MPI_Gatherv(gsend, s->gv_c[s->rank], MPI_INT, s->gv_r, s->gv_c, s->gv_d, MPI_INT, root, c),
           MPI_Igatherv(gsend, s->gv_c[s->rank], MPI_INT, s->gv_r, s->gv_c, s->gv_d, MPI_INT, root,
                        c, req));
        break;
    case OP_SCATTER:
        GO(MPI_Scatter(s->sc_s, n, MPI_INT, s->sc_r, n, MPI_INT, root, c),
           MPI_Iscatter(s->sc_s, n, MPI_INT, s->sc_r, n, MPI_INT, root, c, req));
        break;
    case OP_SCATTERV:
        GO(MPI_Scatterv(s->sv_s, s->gv_c, s->gv_d, MPI_INT, s->sv_r, s->gv_c[s->rank], MPI_INT,
                        root, c),
           MPI_Iscatterv(s->sv_s, s->gv_c, s->gv_d, MPI_INT, s->sv_r, s->gv_c[s->rank], MPI_INT,
                         root, c, req));
        break;
    case OP_ALLGATHER:
        GO(MPI_Allgather(gsend, n, MPI_INT, s->ag_r, n, MPI_INT, c),
           MPI_Iallgather(gsend, n, MPI_INT, s->ag_r, n, MPI_INT, c, req));
        break;
    case OP_ALLGATHERV:
        GO(MPI_Allgatherv(gsend, s->gv_c[s->rank], MPI_INT, s->agv_r, s->gv_c, s->gv_d, MPI_INT, c),
           MPI_Iallgatherv(gsend, s->gv_c[s->rank], MPI_INT, s->agv_r, s->gv_c, s->gv_d, MPI_INT, c,
                           req));
        break;
    case OP_ALLTOALL:
        GO(MPI_Alltoall(s->a2_s, n, MPI_INT, s->a2_r, n, MPI_INT, c),
           MPI_Ialltoall(s->a2_s, n, MPI_INT, s->a2_r, n, MPI_INT, c, req));
        break;
    case OP_ALLTOALLV:
        GO(MPI_Alltoallv(s->a2v_s, s->a2v_sc, s->a2v_sd, MPI_INT, s->a2v_r, s->a2v_rc, s->a2v_rd,
                         MPI_INT, c),
           MPI_Ialltoallv(s->a2v_s, s->a2v_sc, s->a2v_sd, MPI_INT, s->a2v_r, s->a2v_rc, s->a2v_rd,
                          MPI_INT, c, req));
        break;
    case OP_RSB:
        GO(MPI_Reduce_scatter_block(s->rsb_s, s->rsb_r, n, MPI_INT, MPI_SUM, c),
           MPI_Ireduce_scatter_block(s->rsb_s, s->rsb_r, n, MPI_INT, MPI_SUM, c, req));
        break;
    case OP_RS:
        GO(MPI_Reduce_scatter(s->rs_s, s->rs_r, s->rs_c, MPI_INT, MPI_SUM, c),
           MPI_Ireduce_scatter(s->rs_s, s->rs_r, s->rs_c, MPI_INT, MPI_SUM, c, req));
        break;
    case OP_SCAN:
        GO(MPI_Scan(s->scan_s, s->scan_r, n, MPI_LONG_LONG, MPI_SUM, c),
           MPI_Iscan(s->scan_s, s->scan_r, n, MPI_LONG_LONG, MPI_SUM, c, req));
        break;
    case OP_EXSCAN:
        GO(MPI_Exscan(s->scan_s, s->exscan_r, n, MPI_LONG_LONG, MPI_SUM, c),
           MPI_Iexscan(s->scan_s, s->exscan_r, n, MPI_LONG_LONG, MPI_SUM, c, req));
        break;
    }
#undef GO
}

static void set_start_all(struct set *s, MPI_Request *reqs)
{
    for (int op = 0; op < NOPS; op++)
        set_op(s, op, 0, &reqs[op]);
}

/* Check every result of the set against the values computed here. */
static void set_check(const struct set *s, const char *ctx)
{
    int n = s->n, key = s->key, root = s->root, rank = s->rank, size = s->size;
    long sn = (long)size * n;
    const char *nm;

    nm = opname[OP_BCAST];
    for (int i = 0; i < n; i++)
        CHECK(hv(1, key, root, i), s->bc[i], "%s: %s n %d root %d element %d", ctx, nm, n, root, i);
    for (int i = n; i < n + GUARD; i++)
        CHECK(POISON, s->bc[i], "%s: %s wrote past count", ctx, nm);

    nm = opname[OP_REDUCE];
    for (int i = 0; i < n + GUARD; i++) {
        long long e = POISON;
        if (rank == root && i < n) {
            e = 0;
            for (int r = 0; r < size; r++)
                e += sv(r, key, i);
        }
        CHECK(e, s->red_r[i], "%s: %s n %d root %d element %d", ctx, nm, n, root, i);
    }

    nm = opname[OP_ALLREDUCE];
    for (int i = 0; i < n + GUARD; i++) {
        long long e = POISON;
        if (i < n) {
            e = sv(0, key + 1, i);
            for (int r = 1; r < size; r++)
                if (sv(r, key + 1, i) > e)
                    e = sv(r, key + 1, i);
        }
        CHECK(e, s->ar_r[i], "%s: %s(MAX) n %d element %d", ctx, nm, n, i);
    }

    nm = opname[OP_GATHER];
    for (long k = 0; k < sn + GUARD; k++) {
        int e = POISON;
        if (rank == root && k < sn)
            e = hv(2, key, (int)(k / n), (int)(k % n));
        CHECK(e, s->g_r[k], "%s: %s n %d root %d element %ld", ctx, nm, n, root, k);
    }

    /* Gatherv / Allgatherv: expected layout */
    {
        long tot = s->gtot + GUARD;
        int *ex = xmalloc(sizeof(int) * (size_t)tot);
        fill(ex, tot, POISON);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < s->gv_c[r]; i++)
                ex[s->gv_d[r] + i] = hv(2, key, r, i);
        CHECK_ARRAY(ex, s->agv_r, tot, "%s: %s n %d", ctx, opname[OP_ALLGATHERV], n);
        if (rank != root)
            fill(ex, tot, POISON);
        CHECK_ARRAY(ex, s->gv_r, tot, "%s: %s n %d root %d", ctx, opname[OP_GATHERV], n, root);
        free(ex);
    }

    nm = opname[OP_SCATTER];
    for (int i = 0; i < n + GUARD; i++)
        CHECK(i < n ? hv(3, key, root, rank * n + i) : POISON, s->sc_r[i],
              "%s: %s n %d root %d element %d", ctx, nm, n, root, i);
    nm = opname[OP_SCATTERV];
    for (int i = 0; i < n + GUARD; i++)
        CHECK(i < s->gv_c[rank] ? hv(4, key, rank, i) : POISON, s->sv_r[i],
              "%s: %s n %d root %d element %d", ctx, nm, n, root, i);

    nm = opname[OP_ALLGATHER];
    for (long k = 0; k < sn + GUARD; k++)
        CHECK(k < sn ? hv(2, key, (int)(k / n), (int)(k % n)) : POISON, s->ag_r[k],
              "%s: %s n %d element %ld", ctx, nm, n, k);

    nm = opname[OP_ALLTOALL];
    for (long k = 0; k < sn + GUARD; k++)
        CHECK(k < sn ? hv(5 + key, (int)(k / n), rank, (int)(k % n)) : POISON, s->a2_r[k],
              "%s: %s n %d element %ld", ctx, nm, n, k);

    nm = opname[OP_ALLTOALLV];
    {
        long tot = s->a2v_rtot + GUARD;
        int *ex = xmalloc(sizeof(int) * (size_t)tot);
        fill(ex, tot, POISON);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < s->a2v_rc[r]; i++)
                ex[s->a2v_rd[r] + i] = hv(6 + key, r, rank, i);
        CHECK_ARRAY(ex, s->a2v_r, tot, "%s: %s n %d", ctx, nm, n);
        free(ex);
    }

    nm = opname[OP_RSB];
    for (int i = 0; i < n + GUARD; i++) {
        long long e = POISON;
        if (i < n) {
            e = 0;
            for (int r = 0; r < size; r++)
                e += sv(r, key + 3, rank * n + i);
        }
        CHECK(e, s->rsb_r[i], "%s: %s n %d element %d", ctx, nm, n, i);
    }

    nm = opname[OP_RS];
    {
        int off = 0;
        for (int r = 0; r < rank; r++)
            off += s->rs_c[r];
        for (int i = 0; i < n + GUARD; i++) {
            long long e = POISON;
            if (i < s->rs_c[rank]) {
                e = 0;
                for (int r = 0; r < size; r++)
                    e += sv(r, key + 4, off + i);
            }
            CHECK(e, s->rs_r[i], "%s: %s n %d element %d", ctx, nm, n, i);
        }
    }

    for (int i = 0; i < n + GUARD; i++) {
        long long e = POISON, ex = POISON;
        if (i < n) {
            e = 0;
            for (int r = 0; r <= rank; r++) {
                if (r == rank)
                    ex = e;
                e += sv(r, key + 2, i);
            }
        }
        CHECK(e, s->scan_r[i], "%s: %s n %d element %d", ctx, opname[OP_SCAN], n, i);
        if (rank > 0 || i >= n)
            CHECK(ex, s->exscan_r[i], "%s: %s n %d element %d", ctx, opname[OP_EXSCAN], n, i);
    }

    /* send buffers unchanged */
    for (int i = 0; i < n; i++) {
        CHECK(hv(2, key, rank, i), s->g_s[i], "%s: gather sendbuf modified", ctx);
        CHECK(sv(rank, key, i), s->red_s[i], "%s: reduce sendbuf modified", ctx);
        CHECK(sv(rank, key + 1, i), s->ar_s[i], "%s: allreduce sendbuf modified", ctx);
        CHECK(sv(rank, key + 2, i), s->scan_s[i], "%s: scan sendbuf modified", ctx);
    }
    for (long k = 0; k < sn; k++)
        CHECK(hv(5 + key, rank, (int)(k / n), (int)(k % n)), s->a2_s[k],
              "%s: alltoall sendbuf modified", ctx);
}

/* ---------------------------------------------------------------- part 1 */

static void part_each(void)
{
    static const int ns[] = {1, 3000};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int n = ns[k];
        int nroots = n > 100 ? (wsize < 3 ? wsize : 3) : wsize;
        for (int ri = 0; ri < nroots; ri++) {
            int root = n > 100 ? (ri * (wsize - 1)) / (nroots > 1 ? nroots - 1 : 1) : ri;
            struct set nb, bl;
            char ctx[64];
            set_init(&nb, MPI_COMM_WORLD, n, (int)k + ri, root);
            set_init(&bl, MPI_COMM_WORLD, n, (int)k + ri, root);
            for (int op = 0; op < NOPS; op++) {
                MPI_Request rq;
                MPI_Status st;
                set_op(&nb, op, 0, &rq);
                CHECK_TRUE(rq != MPI_REQUEST_NULL, "%s returned MPI_REQUEST_NULL", opname[op]);
                MPI_Wait(&rq, &st);
                CHECK_TRUE(rq == MPI_REQUEST_NULL, "%s: request not freed by MPI_Wait", opname[op]);
                set_op(&bl, op, 1, &rq);
            }
            snprintf(ctx, sizeof ctx, "one at a time (root %d)", root);
            set_check(&nb, ctx);
            snprintf(ctx, sizeof ctx, "blocking (root %d)", root);
            set_check(&bl, ctx);
            /* and equal to each other (Iexscan on rank 0 excepted) */
            CHECK_ARRAY(bl.red_r, nb.red_r, n, "Ireduce vs Reduce");
            CHECK_ARRAY(bl.ar_r, nb.ar_r, n, "Iallreduce vs Allreduce");
            CHECK_ARRAY(bl.g_r, nb.g_r, (long)wsize * n, "Igather vs Gather");
            CHECK_ARRAY(bl.ag_r, nb.ag_r, (long)wsize * n, "Iallgather vs Allgather");
            CHECK_ARRAY(bl.a2_r, nb.a2_r, (long)wsize * n, "Ialltoall vs Alltoall");
            CHECK_ARRAY(bl.rsb_r, nb.rsb_r, n, "Ireduce_scatter_block vs Reduce_scatter_block");
            CHECK_ARRAY(bl.scan_r, nb.scan_r, n, "Iscan vs Scan");
            if (wrank > 0)
                CHECK_ARRAY(bl.exscan_r, nb.exscan_r, n, "Iexscan vs Exscan");
            set_free(&nb);
            set_free(&bl);
        }
    }
}

/* ---------------------------------------------------------------- part 2 */

static void part_outstanding(void)
{
    static const int ns[] = {2, 2000};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int n = ns[k];
        MPI_Request rq[NOPS], rev[NOPS];
        struct set s;

        /* Waitall over the reversed request array */
        set_init(&s, MPI_COMM_WORLD, n, 10 + (int)k, wsize - 1);
        set_start_all(&s, rq);
        for (int i = 0; i < NOPS; i++)
            rev[i] = rq[NOPS - 1 - i];
        MPI_Waitall(NOPS, rev, MPI_STATUSES_IGNORE);
        for (int i = 0; i < NOPS; i++)
            CHECK_TRUE(rev[i] == MPI_REQUEST_NULL, "Waitall left request %d active", i);
        set_check(&s, "all outstanding, Waitall reversed");
        set_free(&s);

        /* MPI_Wait one by one, last started first */
        set_init(&s, MPI_COMM_WORLD, n, 20 + (int)k, wsize / 2);
        set_start_all(&s, rq);
        for (int i = NOPS - 1; i >= 0; i--)
            MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
        set_check(&s, "all outstanding, Wait in reverse order");
        set_free(&s);

        /* MPI_Waitany */
        set_init(&s, MPI_COMM_WORLD, n, 30 + (int)k, 0);
        set_start_all(&s, rq);
        int seen[NOPS] = {0};
        for (int i = 0; i < NOPS; i++) {
            int idx = -1;
            MPI_Waitany(NOPS, rq, &idx, MPI_STATUS_IGNORE);
            CHECK_TRUE(idx >= 0 && idx < NOPS && !seen[idx], "Waitany index %d", idx);
            seen[idx] = 1;
        }
        set_check(&s, "all outstanding, Waitany");
        set_free(&s);

        /* Testsome / Testall polling */
        set_init(&s, MPI_COMM_WORLD, n, 40 + (int)k, wsize > 1 ? 1 : 0);
        set_start_all(&s, rq);
        int done = 0, all = 0;
        long spins = 0;
        while (done < NOPS) {
            int outcount = -1, idx[NOPS];
            MPI_Testsome(NOPS, rq, &outcount, idx, MPI_STATUSES_IGNORE);
            if (outcount == MPI_UNDEFINED)
                break;
            done += outcount;
            spins++;
        }
        CHECK(NOPS, done, "Testsome completions");
        MPI_Testall(NOPS, rq, &all, MPI_STATUSES_IGNORE);
        CHECK(1, all, "Testall after everything completed");
        (void)spins;
        set_check(&s, "all outstanding, Testsome polling");
        set_free(&s);
    }
}

/* ---------------------------------------------------------------- part 3 */

static void part_two_comms(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int iter = 0; iter < 3; iter++) {
        struct set a, b;
        MPI_Request rq[2 * NOPS];
        set_init(&a, MPI_COMM_WORLD, 5 + iter * 500, 50 + iter, iter % wsize);
        set_init(&b, dup, 7 + iter * 300, 60 + iter, (wsize - 1 - iter % wsize));
        if (wrank % 2 == 0) {
            set_start_all(&a, rq);
            set_start_all(&b, rq + NOPS);
        } else {
            set_start_all(&b, rq + NOPS);
            set_start_all(&a, rq);
        }
        if (iter == 1) {
            MPI_Waitall(NOPS, rq + NOPS, MPI_STATUSES_IGNORE);
            MPI_Waitall(NOPS, rq, MPI_STATUSES_IGNORE);
        } else {
            MPI_Waitall(2 * NOPS, rq, MPI_STATUSES_IGNORE);
        }
        set_check(&a, "world, started before/after the dup's");
        set_check(&b, "dup, started before/after world's");
        set_free(&a);
        set_free(&b);
    }

    /* interleaved starts: world op k, dup op k, ... on even ranks; the
     * dup's first on odd ranks */
    struct set a, b;
    MPI_Request rq[2 * NOPS];
    set_init(&a, MPI_COMM_WORLD, 4, 70, 0);
    set_init(&b, dup, 4, 71, wsize - 1);
    for (int op = 0; op < NOPS; op++) {
        if (wrank % 2 == 0) {
            set_op(&a, op, 0, &rq[op]);
            set_op(&b, op, 0, &rq[NOPS + op]);
        } else {
            set_op(&b, op, 0, &rq[NOPS + op]);
            set_op(&a, op, 0, &rq[op]);
        }
    }
    MPI_Waitall(2 * NOPS, rq, MPI_STATUSES_IGNORE);
    set_check(&a, "world, interleaved with the dup");
    set_check(&b, "dup, interleaved with world");
    set_free(&a);
    set_free(&b);
    MPI_Comm_free(&dup);
}

/* ---------------------------------------------------------------- part 4 */

static void part_test_poll(void)
{
    for (int iter = 0; iter < 4; iter++) {
        int n = iter % 2 ? 10000 : 3;
        long long *in = xmalloc(sizeof(long long) * (size_t)n);
        long long *out = xmalloc(sizeof(long long) * (size_t)n);
        for (int i = 0; i < n; i++) {
            in[i] = sv(wrank, iter, i);
            out[i] = POISON;
        }
        MPI_Request r;
        int flag = 0;
        MPI_Iallreduce(in, out, n, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        CHECK_TRUE(r == MPI_REQUEST_NULL, "MPI_Test did not free the completed request");
        for (int i = 0; i < n; i++) {
            long long e = 0;
            for (int q = 0; q < wsize; q++)
                e += sv(q, iter, i);
            CHECK(e, out[i], "Iallreduce polled with MPI_Test (n %d) element %d", n, i);
        }
        free(in);
        free(out);

        flag = 0;
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        while (!flag)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        /* a test on the now-null request says done */
        flag = 0;
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        CHECK(1, flag, "MPI_Test on MPI_REQUEST_NULL");
    }
}

/* ---------------------------------------------------------------- part 5 */

static void part_p2p_interleave(void)
{
    int right = (wrank + 1) % wsize, left = (wrank - 1 + wsize) % wsize;
    static const int sizes[] = {1, 5000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        int *ps = xmalloc(sizeof(int) * (size_t)n), *pr = xmalloc(sizeof(int) * (size_t)n);
        int *ps2 = xmalloc(sizeof(int) * (size_t)n), *pr2 = xmalloc(sizeof(int) * (size_t)n);
        long long *ai = xmalloc(sizeof(long long) * (size_t)n);
        long long *ao = xmalloc(sizeof(long long) * (size_t)n);
        int *bc = xmalloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++) {
            ps[i] = hv(80, wrank, (int)k, i);
            ps2[i] = hv(81, wrank, (int)k, i);
            pr[i] = pr2[i] = POISON;
            ai[i] = sv(wrank, 90 + (int)k, i);
            ao[i] = POISON;
            bc[i] = wrank == 0 ? hv(82, 0, (int)k, i) : POISON;
        }
        MPI_Request p2p[4], coll[2];
        MPI_Status st[4];
        MPI_Irecv(pr, n, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &p2p[0]);
        MPI_Irecv(pr2, n, MPI_INT, left, 3, MPI_COMM_WORLD, &p2p[1]);
        MPI_Isend(ps, n, MPI_INT, right, 0, MPI_COMM_WORLD, &p2p[2]);
        MPI_Iallreduce(ai, ao, n, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &coll[0]);
        MPI_Ibcast(bc, n, MPI_INT, 0, MPI_COMM_WORLD, &coll[1]);
        MPI_Isend(ps2, n, MPI_INT, right, 3, MPI_COMM_WORLD, &p2p[3]);
        MPI_Waitall(2, coll, MPI_STATUSES_IGNORE);
        MPI_Waitall(4, p2p, st);

        CHECK(left, st[0].MPI_SOURCE, "wildcard receive (n %d) source", n);
        CHECK(0, st[0].MPI_TAG, "wildcard receive (n %d) tag", n);
        int cnt = -1;
        MPI_Get_count(&st[0], MPI_INT, &cnt);
        CHECK(n, cnt, "wildcard receive (n %d) count", n);
        for (int i = 0; i < n; i++) {
            if (pr[i] != hv(80, left, (int)k, i))
                CHECK(hv(80, left, (int)k, i), pr[i], "wildcard p2p payload (n %d) element %d", n, i);
            if (pr2[i] != hv(81, left, (int)k, i))
                CHECK(hv(81, left, (int)k, i), pr2[i], "tag-3 p2p payload (n %d) element %d", n, i);
            long long e = 0;
            for (int q = 0; q < wsize; q++)
                e += sv(q, 90 + (int)k, i);
            CHECK(e, ao[i], "Iallreduce amid p2p (n %d) element %d", n, i);
            CHECK(hv(82, 0, (int)k, i), bc[i], "Ibcast amid p2p (n %d) element %d", n, i);
        }
        free(ps);
        free(pr);
        free(ps2);
        free(pr2);
        free(ai);
        free(ao);
        free(bc);
    }
}

/* ---------------------------------------------------------------- part 6 */

static void part_in_place(void)
{
    enum { N = 6 };
    long long ar[N], sc[N], rd[N];
    int *ag = xmalloc(sizeof(int) * (size_t)(wsize * N + GUARD));
    int *ga = xmalloc(sizeof(int) * (size_t)(wsize * N + GUARD));
    MPI_Request rq[5];
    int root = wsize - 1;

    for (int i = 0; i < N; i++) {
        ar[i] = sv(wrank, 100, i);
        sc[i] = sv(wrank, 101, i);
        rd[i] = sv(wrank, 102, i);
    }
    fill(ag, wsize * N + GUARD, POISON);
    fill(ga, wsize * N + GUARD, POISON);
    for (int i = 0; i < N; i++) {
        ag[wrank * N + i] = hv(103, wrank, 0, i);
        if (wrank == root)
            ga[wrank * N + i] = hv(103, wrank, 0, i);
    }
    int mine[N];
    for (int i = 0; i < N; i++)
        mine[i] = hv(103, wrank, 0, i);

    MPI_Iallreduce(MPI_IN_PLACE, ar, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
    MPI_Iscan(MPI_IN_PLACE, sc, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
    if (wrank == root)
        MPI_Ireduce(MPI_IN_PLACE, rd, N, MPI_LONG_LONG, MPI_MIN, root, MPI_COMM_WORLD, &rq[2]);
    else
        MPI_Ireduce(rd, NULL, N, MPI_LONG_LONG, MPI_MIN, root, MPI_COMM_WORLD, &rq[2]);
    MPI_Iallgather(MPI_IN_PLACE, N, MPI_INT, ag, N, MPI_INT, MPI_COMM_WORLD, &rq[3]);
    if (wrank == root)
        MPI_Igather(MPI_IN_PLACE, N, MPI_INT, ga, N, MPI_INT, root, MPI_COMM_WORLD, &rq[4]);
    else
        MPI_Igather(mine, N, MPI_INT, NULL, N, MPI_INT, root, MPI_COMM_WORLD, &rq[4]);
    MPI_Waitall(5, rq, MPI_STATUSES_IGNORE);

    for (int i = 0; i < N; i++) {
        long long esum = 0, escan = 0, emin = sv(0, 102, i);
        for (int q = 0; q < wsize; q++) {
            esum += sv(q, 100, i);
            if (q <= wrank)
                escan += sv(q, 101, i);
            if (sv(q, 102, i) < emin)
                emin = sv(q, 102, i);
        }
        CHECK(esum, ar[i], "Iallreduce(IN_PLACE) element %d", i);
        CHECK(escan, sc[i], "Iscan(IN_PLACE) element %d", i);
        if (wrank == root)
            CHECK(emin, rd[i], "Ireduce(IN_PLACE, MIN) element %d", i);
        else
            CHECK(sv(wrank, 102, i), rd[i], "Ireduce sendbuf modified element %d", i);
    }
    for (int k = 0; k < wsize * N + GUARD; k++) {
        int e = k < wsize * N ? hv(103, k / N, 0, k % N) : POISON;
        CHECK(e, ag[k], "Iallgather(IN_PLACE) element %d", k);
        if (wrank == root)
            CHECK(e, ga[k], "Igather(IN_PLACE) element %d", k);
    }
    free(ag);
    free(ga);
}

/* ---------------------------------------------------------------- part 7 */

static int wcount(int s, int d) { return (s + 2 * d) % 5 == 3 ? 0 : 1 + (s * 3 + d) % 4; }

static void part_alltoallw(void)
{
    int *sc = xmalloc(sizeof(int) * (size_t)wsize), *sd = xmalloc(sizeof(int) * (size_t)wsize);
    int *rc = xmalloc(sizeof(int) * (size_t)wsize), *rd = xmalloc(sizeof(int) * (size_t)wsize);
    MPI_Datatype *st = xmalloc(sizeof(MPI_Datatype) * (size_t)wsize);
    MPI_Datatype *rt = xmalloc(sizeof(MPI_Datatype) * (size_t)wsize);
    int *soff = xmalloc(sizeof(int) * (size_t)wsize), *roff = xmalloc(sizeof(int) * (size_t)wsize);

    /* send side: to peer d, wcount(me, d) ints laid out by type kind d % 3;
     * blocks placed in reverse peer order with a gap of one int */
    int off = 0;
    for (int d = wsize - 1; d >= 0; d--) {
        int c = wcount(wrank, d);
        soff[d] = off;
        sd[d] = off * (int)sizeof(int);
        if (d % 3 == 0) {
            st[d] = MPI_INT;
            sc[d] = c;
            off += c + 1;
        } else if (d % 3 == 1) {
            MPI_Type_contiguous(c, MPI_INT, &st[d]);
            MPI_Type_commit(&st[d]);
            sc[d] = 1;
            off += c + 1;
        } else {
            MPI_Type_vector(c, 1, 2, MPI_INT, &st[d]);
            MPI_Type_commit(&st[d]);
            sc[d] = 1;
            off += 2 * c + 1;
        }
    }
    int slen = off;
    /* receive side: from peer s, wcount(s, me) ints, MPI_INT for even s,
     * vector(c, 1, 3) for odd s; blocks in peer order */
    off = 0;
    for (int s = 0; s < wsize; s++) {
        int c = wcount(s, wrank);
        roff[s] = off;
        rd[s] = off * (int)sizeof(int);
        if (s % 2 == 0) {
            rt[s] = MPI_INT;
            rc[s] = c;
            off += c + 1;
        } else {
            MPI_Type_vector(c, 1, 3, MPI_INT, &rt[s]);
            MPI_Type_commit(&rt[s]);
            rc[s] = 1;
            off += 3 * c + 1;
        }
    }
    int rlen = off;

    int *sb = xmalloc(sizeof(int) * (size_t)(slen + GUARD));
    int *rb = xmalloc(sizeof(int) * (size_t)(rlen + GUARD));
    int *ex = xmalloc(sizeof(int) * (size_t)(rlen + GUARD));
    int *sx = xmalloc(sizeof(int) * (size_t)(slen + GUARD));
    fill(sb, slen + GUARD, POISON);
    for (int d = 0; d < wsize; d++) {
        int stride = d % 3 == 2 ? 2 : 1;
        for (int i = 0; i < wcount(wrank, d); i++)
            sb[soff[d] + stride * i] = hv(110, wrank, d, i);
    }
    memcpy(sx, sb, sizeof(int) * (size_t)(slen + GUARD));
    fill(rb, rlen + GUARD, POISON);
    fill(ex, rlen + GUARD, POISON);
    for (int s = 0; s < wsize; s++) {
        int stride = s % 2 ? 3 : 1;
        for (int i = 0; i < wcount(s, wrank); i++)
            ex[roff[s] + stride * i] = hv(110, s, wrank, i);
    }

    MPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, MPI_COMM_WORLD);
    CHECK_ARRAY(ex, rb, rlen + GUARD, "Alltoallw recvbuf");
    CHECK_ARRAY(sx, sb, slen + GUARD, "Alltoallw modified sendbuf");

    for (int d = 0; d < wsize; d++)
        if (st[d] != MPI_INT)
            MPI_Type_free(&st[d]);
    for (int s = 0; s < wsize; s++)
        if (rt[s] != MPI_INT)
            MPI_Type_free(&rt[s]);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
    free(soff);
    free(roff);
    free(sb);
    free(rb);
    free(ex);
    free(sx);
}

/* Many short non-blocking collectives back to back (helper fibers finish and
 * are reused while the subrank runs on), and a communicator freed while a
 * non-blocking collective on it is still pending: MPI lets the operation
 * finish, and a communicator created meanwhile must not take its messages. */
static void part_churn_and_free(void)
{
    for (int it = 0; it < 200; it++) {
        MPI_Request rq[2];
        int one = 1, sum = -1;
        MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]);
        MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        CHECK(wsize, sum, "Iallreduce in a loop");
    }
#ifdef TUCANA
    /* (Open MPI 4.1.4 itself crashes here: its libnbc progresses the
     * collective on the freed communicator inside the next MPI_Comm_dup.) */
    MPI_Comm c, d;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int mine = wrank + 1, total = -1, total_d = -1;
    MPI_Request rq;
    MPI_Iallreduce(&mine, &total, 1, MPI_INT, MPI_SUM, c, &rq);
    MPI_Comm_free(&c);
    CHECK(1, c == MPI_COMM_NULL, "MPI_Comm_free sets the handle to MPI_COMM_NULL");
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    int two = 2 * (wrank + 1);
    MPI_Allreduce(&two, &total_d, 1, MPI_INT, MPI_SUM, d);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    CHECK(wsize * (wsize + 1) / 2, total, "Iallreduce on a freed communicator");
    CHECK(wsize * (wsize + 1), total_d, "Allreduce on the communicator created after the free");
    MPI_Comm_free(&d);
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    part_each();
    part_outstanding();
    part_two_comms();
    part_test_poll();
    part_p2p_interleave();
    part_in_place();
    part_alltoallw();
    part_churn_and_free();

    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
