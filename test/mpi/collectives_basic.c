/*
 * collectives_basic -- MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce
 * (MPI-3.1 sec. 5.3, 5.4, 5.9).
 *
 *  1. Repeated MPI_Barrier; a barrier separates "before" and "after"
 *     messages (a message sent after the barrier by any rank cannot be
 *     received by a receive that completed before it).
 *  2. MPI_Bcast from every root with counts 0, 1, 1000 and 100000 (MPI_INT,
 *     MPI_DOUBLE); non-root buffers are fully overwritten, the root's
 *     buffer is unchanged, bytes past count are untouched.
 *  3. MPI_Reduce to every root with MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN
 *     (MPI_INT, MPI_DOUBLE) and counts 0, 1, 1000; the send buffer is not
 *     modified, non-root receive buffers are not touched (also with a NULL
 *     receive buffer at non-roots).
 *  4. MPI_Allreduce with the same ops and counts; every rank gets the same
 *     (exact, integer-valued) result.
 *  5. Back-to-back collectives with different roots and no barrier.
 *  6. Collective traffic must not match point-to-point receives: an
 *     MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) is pending during all of the
 *     above and is satisfied only by the point-to-point message sent at the
 *     end.
 *
 * Works for any world size >= 1.  Prints "OK collectives_basic" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "collectives_basic"

static void fail(long long expected, long long got, const char *ctx, int line)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL %s: rank %d: expected %lld got %lld (%s; %s:%d)\n",
            TESTNAME, rank, expected, got, ctx, __FILE__, line);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define CHECK(expected, got, ...)                                         \
    do {                                                                  \
        long long e_ = (long long)(expected), g_ = (long long)(got);      \
        if (e_ != g_) {                                                   \
            char c_[256];                                                 \
            snprintf(c_, sizeof c_, __VA_ARGS__);                         \
            fail(e_, g_, c_, __LINE__);                                   \
        }                                                                 \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        fail((long long)n, 0, "malloc failed", __LINE__);
    return p;
}

#define GUARD 8
#define POISON (-777)

static const int bcast_counts[] = {0, 1, 1000, 100000};
static const int red_counts[] = {0, 1, 1000};

static int bval(int root, int c, int i)
{
    return root * 100003 + c * 7 + i;
}

static void part_barrier(int rank, int size)
{
    for (int i = 0; i < 20; i++)
        MPI_Barrier(MPI_COMM_WORLD);

    /* Each rank sends "after" messages to its right neighbour only after
     * the barrier; before the barrier, an Iprobe for them must fail. */
    {
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        int flag = 1, v = rank, r = -1;
        MPI_Iprobe(left, 77, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        CHECK(0, flag, "message visible before the barrier it is sent after");
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Sendrecv(&v, 1, MPI_INT, right, 77, &r, 1, MPI_INT, left, 77,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(left, r, "barrier: payload");
    }
}

static void part_bcast(int rank, int size)
{
    int *ib = xmalloc(sizeof(int) * (100000 + GUARD));
    double *db = xmalloc(sizeof(double) * (100000 + GUARD));

    for (size_t k = 0; k < sizeof bcast_counts / sizeof bcast_counts[0]; k++) {
        int c = bcast_counts[k];
        for (int root = 0; root < size; root++) {
            for (int i = 0; i < c + GUARD; i++) {
                ib[i] = (rank == root && i < c) ? bval(root, c, i) : POISON;
                db[i] = (rank == root && i < c) ? 0.5 * bval(root, c, i) : POISON;
            }
            MPI_Bcast(ib, c, MPI_INT, root, MPI_COMM_WORLD);
            MPI_Bcast(db, c, MPI_DOUBLE, root, MPI_COMM_WORLD);
            for (int i = 0; i < c; i++) {
                if (ib[i] != bval(root, c, i))
                    CHECK(bval(root, c, i), ib[i], "Bcast int count %d root %d element %d", c, root, i);
                if (db[i] != 0.5 * bval(root, c, i))
                    CHECK(bval(root, c, i), 2 * db[i], "Bcast double count %d root %d element %d (x2)", c, root, i);
            }
            for (int i = c; i < c + GUARD; i++) {
                CHECK(POISON, ib[i], "Bcast int count %d root %d wrote past count", c, root);
                CHECK(POISON, db[i], "Bcast double count %d root %d wrote past count", c, root);
            }
        }
    }
    free(ib);
    free(db);
}

/* Reduction inputs: integer values in -5..5 (sums exact); products use
 * 1 and -1/2 factors on few ranks. */
static int rv(int r, int i) { return (r * 5 + i * 3 + 2) % 11 - 5; }
static int pv(int r, int i) { return ((r + i) % 6 == 0) ? -2 : 1; }

#define NOPS 4
static const char *op_name_of(int k)
{
    switch (k) {
    case 0: return "MPI_SUM";
    case 1: return "MPI_PROD";
    case 2: return "MPI_MAX";
    default: return "MPI_MIN";
    }
}

static MPI_Op op_of(int k)
{
    switch (k) {
    case 0: return MPI_SUM;
    case 1: return MPI_PROD;
    case 2: return MPI_MAX;
    default: return MPI_MIN;
    }
}

static long long expected(int op, int size, int i)
{
    long long e = op == 1 ? pv(0, i) : rv(0, i);
    for (int r = 1; r < size; r++) {
        long long v = op == 1 ? pv(r, i) : rv(r, i);
        switch (op) {
        case 0: e += v; break;
        case 1: e *= v; break;
        case 2: if (v > e) e = v; break;
        default: if (v < e) e = v; break;
        }
    }
    return e;
}

static void part_reduce(int rank, int size, int all)
{
    const char *what = all ? "Allreduce" : "Reduce";
    int *isb = xmalloc(sizeof(int) * 1000), *irb = xmalloc(sizeof(int) * (1000 + GUARD));
    double *dsb = xmalloc(sizeof(double) * 1000), *drb = xmalloc(sizeof(double) * (1000 + GUARD));
    int nroots = all ? 1 : size;

    for (int op = 0; op < NOPS; op++)
        for (size_t k = 0; k < sizeof red_counts / sizeof red_counts[0]; k++)
            for (int root = 0; root < nroots; root++) {
                int c = red_counts[k];
                /* at non-roots, alternate between a real and a NULL recvbuf */
                int null_recv = !all && rank != root && (root + op) % 2 == 1;
                for (int i = 0; i < c; i++) {
                    isb[i] = op == 1 ? pv(rank, i) : rv(rank, i);
                    dsb[i] = (double)isb[i];
                }
                for (int i = 0; i < c + GUARD; i++) {
                    irb[i] = POISON;
                    drb[i] = POISON;
                }
                if (all) {
                    MPI_Allreduce(isb, irb, c, MPI_INT, op_of(op), MPI_COMM_WORLD);
                    MPI_Allreduce(dsb, drb, c, MPI_DOUBLE, op_of(op), MPI_COMM_WORLD);
                } else {
                    MPI_Reduce(isb, null_recv ? NULL : irb, c, MPI_INT, op_of(op),
                               root, MPI_COMM_WORLD);
                    MPI_Reduce(dsb, null_recv ? NULL : drb, c, MPI_DOUBLE,
                               op_of(op), root, MPI_COMM_WORLD);
                }
                for (int i = 0; i < c; i++) {
                    int v = op == 1 ? pv(rank, i) : rv(rank, i);
                    CHECK(v, isb[i], "%s %s modified int sendbuf", what, op_name_of(op));
                    CHECK(v, dsb[i], "%s %s modified double sendbuf", what, op_name_of(op));
                }
                if (all || rank == root) {
                    for (int i = 0; i < c; i++) {
                        long long e = expected(op, size, i);
                        CHECK(e, irb[i], "%s %s int count %d root %d element %d",
                              what, op_name_of(op), c, root, i);
                        if (drb[i] != (double)e)
                            CHECK(e, drb[i], "%s %s double count %d root %d element %d",
                                  what, op_name_of(op), c, root, i);
                    }
                    for (int i = c; i < c + GUARD; i++)
                        CHECK(POISON, irb[i], "%s wrote past count", what);
                } else {
                    for (int i = 0; i < c + GUARD; i++) {
                        CHECK(POISON, irb[i], "Reduce wrote int recvbuf at non-root");
                        CHECK(POISON, drb[i], "Reduce wrote double recvbuf at non-root");
                    }
                }
            }
    free(isb);
    free(irb);
    free(dsb);
    free(drb);
}

static void part_back_to_back(int rank, int size)
{
    /* Many different-root collectives without any synchronization. */
    int v[3], s, sum_expect = 0;
    for (int r = 0; r < size; r++)
        sum_expect += r + 1;
    for (int it = 0; it < 3 * size + 5; it++) {
        int root = (it * 7) % size;
        v[0] = rank == root ? it * 1000 + root : -1;
        v[1] = rank == root ? -it : -1;
        v[2] = rank == root ? 42 : -1;
        MPI_Bcast(v, 3, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(it * 1000 + root, v[0], "back-to-back Bcast %d", it);
        CHECK(-it, v[1], "back-to-back Bcast %d", it);
        s = rank + 1;
        int out = -1;
        MPI_Reduce(&s, &out, 1, MPI_INT, MPI_SUM, (root + 1) % size, MPI_COMM_WORLD);
        if (rank == (root + 1) % size)
            CHECK(sum_expect, out, "back-to-back Reduce %d", it);
        out = -1;
        MPI_Allreduce(&s, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        CHECK(size, out, "back-to-back Allreduce %d", it);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    int pending = -1;
    MPI_Request preq;
    MPI_Status pst;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* 6: a wildcard receive pending during all the collectives. */
    MPI_Irecv(&pending, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
              MPI_COMM_WORLD, &preq);

    part_bcast(rank, size);
    part_reduce(rank, size, 0);
    part_reduce(rank, size, 1);
    part_back_to_back(rank, size);

    {
        int flag = 1;
        MPI_Test(&preq, &flag, &pst);
        CHECK(0, flag, "pending wildcard receive matched collective traffic");
        int v = 1000 + rank;
        MPI_Send(&v, 1, MPI_INT, rank, 99, MPI_COMM_WORLD);
        MPI_Wait(&preq, &pst);
        CHECK(1000 + rank, pending, "pending wildcard receive: payload");
        CHECK(rank, pst.MPI_SOURCE, "pending wildcard receive: source");
        CHECK(99, pst.MPI_TAG, "pending wildcard receive: tag");
    }

    /* after the pending receive is gone: uses point-to-point tag 77 */
    part_barrier(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
