/*
 * collectives_more -- the data-movement and reduce-scatter/scan collectives
 * (MPI-3.1 sec. 5.5-5.11), user-defined operations and derived datatypes in
 * collectives.
 *
 *  1. MPI_Gather / MPI_Scatter from every root with counts 0, 1 and 7;
 *     MPI_Gatherv / MPI_Scatterv with rank-dependent counts (zero for some
 *     ranks) and non-monotonic displacements with gaps; MPI_IN_PLACE at the
 *     root (Gather: the root's block is already in recvbuf; Scatter: the
 *     root's recvbuf is MPI_IN_PLACE).  Gaps, bytes past the data, send
 *     buffers and non-root receive buffers are not touched.
 *  2. MPI_Allgather (counts 0, 1, 7) and MPI_Allgatherv (rank-dependent
 *     counts, shuffled displacements), both also with MPI_IN_PLACE.
 *  3. MPI_Alltoall (counts 0, 1, 3) and MPI_Alltoallv with a rank-pair
 *     dependent count matrix (with zeros) and shuffled displacements on both
 *     the send and the receive side.
 *  4. MPI_Reduce_scatter_block and MPI_Reduce_scatter (rank-dependent
 *     recvcounts, some zero) with MPI_SUM on MPI_INT and MPI_MAX on
 *     MPI_DOUBLE (integer-valued), also with MPI_IN_PLACE.
 *  5. MPI_Scan and MPI_Exscan with MPI_SUM and MPI_PROD on MPI_LONG_LONG,
 *     also with MPI_IN_PLACE (Exscan's result on rank 0 is not checked).
 *  6. User operations from MPI_Op_create: a commutative one (elementwise max
 *     of |x| on MPI_INT) and a non-commutative one (2x2 integer matrix
 *     product on a contiguous(4, MPI_LONG_LONG) type) with MPI_Reduce to
 *     every root, MPI_Allreduce and MPI_Scan; the non-commutative result is
 *     the product in rank order a0*a1*...*a(n-1).
 *  7. Derived datatypes: MPI_Gather of a vector (stride 2) into contiguous
 *     ints, MPI_Allgather of contiguous(3, MPI_INT), MPI_Alltoall with the
 *     same vector type on the send and the receive side (holes untouched).
 *     (Different send/receive type maps in MPI_Alltoall are not used: Open
 *     MPI <= 4.1.4's modified-Bruck alltoall, its default for small messages
 *     at 16 ranks, gets them wrong -- open-mpi/ompi PR #10488.)
 *  8. The same calls on MPI_COMM_SELF behave like local copies.
 *  9. Point-to-point interleaved with a collective: MPI_Irecv from rank-1
 *     and MPI_Isend to rank+1 (tag 5) are posted, then an MPI_Allgather runs,
 *     then MPI_Waitall; neither payload is confused with the other.
 *
 * Works for any world size >= 1.  Prints "OK collectives_more" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "collectives_more"

static void fail(const char *what, long long expected, long long got, int line)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL %s: rank %d: %s (line %d) expected %lld got %lld\n",
            TESTNAME, rank, what, line, expected, got);
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
            fail(c_, e_, g_, __LINE__);                                   \
        }                                                                 \
    } while (0)

/* Element-by-element comparison of two arrays (int, long long or
 * integer-valued double); the message names the first differing element. */
#define CHECK_ARRAY(exp, got, n, ...)                                     \
    do {                                                                  \
        for (int k_ = 0; k_ < (n); k_++) {                                \
            if ((exp)[k_] != (got)[k_]) {                                 \
                char c_[256], d_[300];                                    \
                snprintf(c_, sizeof c_, __VA_ARGS__);                     \
                snprintf(d_, sizeof d_, "%s element %d", c_, k_);         \
                fail(d_, (long long)(exp)[k_], (long long)(got)[k_],      \
                     __LINE__);                                           \
            }                                                             \
        }                                                                 \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        fail("malloc failed", (long long)n, 0, __LINE__);
    return p;
}

#define GUARD 8
#define POISON (-777)

static void fill(int *b, int n, int v)
{
    for (int i = 0; i < n; i++)
        b[i] = v;
}

static void filld(double *b, int n, double v)
{
    for (int i = 0; i < n; i++)
        b[i] = v;
}

/* element i contributed by rank r */
static int val(int r, int i) { return 1000 * r + i; }
/* element i sent by rank src to rank dst */
static int val3(int src, int dst, int i) { return 100000 * src + 1000 * dst + i; }

/* rank-dependent count (0..5, zero for some ranks; key varies the pattern) */
static int vcount(int r, int key)
{
    return ((r + key) % 3 == 1) ? 0 : 1 + (r * 7 + key) % 5;
}

/* Displacements for per-rank blocks: odd positions descending, then even
 * positions ascending (rotated by key), with a one-element gap after some
 * blocks.  Returns the buffer length needed. */
static int layout(const int *counts, int n, int key, int *displs)
{
    int off = 0;
    for (int j = n - 1; j >= 0; j--)
        if (j % 2 == 1) {
            int r = (j + key) % n;
            displs[r] = off;
            off += counts[r] + (r + key) % 2;
        }
    for (int j = 0; j < n; j++)
        if (j % 2 == 0) {
            int r = (j + key) % n;
            displs[r] = off;
            off += counts[r] + (r + key) % 2;
        }
    return off;
}

/* ---------------------------------------------------------------- part 1 */

static void part_gather_scatter(int rank, int size)
{
    static const int counts[] = {0, 1, 7};
    int cap = size * 8 + GUARD;
    int *sb = xmalloc(sizeof(int) * cap);
    int *rb = xmalloc(sizeof(int) * cap);
    int *ex = xmalloc(sizeof(int) * cap);
    int *vc = xmalloc(sizeof(int) * size);
    int *vd = xmalloc(sizeof(int) * size);

    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int c = counts[k];
        int n = size * c + GUARD;
        for (int root = 0; root < size; root++) {
            /* Gather */
            fill(sb, cap, POISON);
            for (int i = 0; i < c; i++)
                sb[i] = val(rank, i);
            fill(rb, n, POISON);
            MPI_Gather(sb, c, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD);
            fill(ex, n, POISON);
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < c; i++)
                        ex[r * c + i] = val(r, i);
            CHECK_ARRAY(ex, rb, n, "Gather count %d root %d recvbuf", c, root);
            for (int i = 0; i < c; i++)
                CHECK(val(rank, i), sb[i], "Gather count %d root %d modified sendbuf", c, root);

            /* Gather, MPI_IN_PLACE at the root */
            fill(rb, n, POISON);
            if (rank == root) {
                for (int i = 0; i < c; i++)
                    rb[root * c + i] = val(root, i);
                MPI_Gather(MPI_IN_PLACE, c, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD);
            } else {
                MPI_Gather(sb, c, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD);
            }
            CHECK_ARRAY(ex, rb, n, "Gather(IN_PLACE) count %d root %d recvbuf", c, root);

            /* Scatter */
            fill(sb, n, POISON);
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < c; i++)
                        sb[r * c + i] = val3(root, r, i);
            fill(rb, c + GUARD, POISON);
            MPI_Scatter(sb, c, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD);
            fill(ex, c + GUARD, POISON);
            for (int i = 0; i < c; i++)
                ex[i] = val3(root, rank, i);
            CHECK_ARRAY(ex, rb, c + GUARD, "Scatter count %d root %d recvbuf", c, root);

            /* Scatter, MPI_IN_PLACE at the root; the root's sendbuf is
             * unchanged, non-roots receive as usual. */
            fill(ex, n, POISON);
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < c; i++)
                        ex[r * c + i] = val3(root, r, i);
            CHECK_ARRAY(ex, sb, n, "Scatter count %d root %d modified sendbuf", c, root);
            if (rank == root) {
                MPI_Scatter(sb, c, MPI_INT, MPI_IN_PLACE, c, MPI_INT, root, MPI_COMM_WORLD);
                CHECK_ARRAY(ex, sb, n, "Scatter(IN_PLACE) count %d root %d modified sendbuf", c, root);
            } else {
                fill(rb, c + GUARD, POISON);
                MPI_Scatter(sb, c, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD);
                fill(ex, c + GUARD, POISON);
                for (int i = 0; i < c; i++)
                    ex[i] = val3(root, rank, i);
                CHECK_ARRAY(ex, rb, c + GUARD, "Scatter(IN_PLACE) count %d root %d recvbuf", c, root);
            }
        }
    }

    /* Gatherv / Scatterv: rank-dependent counts, shuffled displacements */
    for (int root = 0; root < size; root++) {
        for (int r = 0; r < size; r++)
            vc[r] = vcount(r, root);
        int total = layout(vc, size, root + 1, vd);
        int n = total + GUARD;
        int c = vc[rank];

        for (int inplace = 0; inplace < 2; inplace++) {
            const char *ip = inplace ? "(IN_PLACE)" : "";
            fill(sb, cap, POISON);
            for (int i = 0; i < c; i++)
                sb[i] = val(rank, i);
            fill(rb, n, POISON);
            fill(ex, n, POISON);
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < vc[r]; i++)
                        ex[vd[r] + i] = val(r, i);
            if (inplace && rank == root) {
                for (int i = 0; i < c; i++)
                    rb[vd[root] + i] = val(root, i);
                MPI_Gatherv(MPI_IN_PLACE, c, MPI_INT, rb, vc, vd, MPI_INT, root, MPI_COMM_WORLD);
            } else {
                MPI_Gatherv(sb, c, MPI_INT, rb, vc, vd, MPI_INT, root, MPI_COMM_WORLD);
            }
            CHECK_ARRAY(ex, rb, n, "Gatherv%s root %d recvbuf", ip, root);
            for (int i = 0; i < c; i++)
                CHECK(val(rank, i), sb[i], "Gatherv%s root %d modified sendbuf", ip, root);

            fill(sb, n, POISON);
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < vc[r]; i++)
                        sb[vd[r] + i] = val3(root, r, i);
            fill(rb, c + GUARD, POISON);
            if (inplace && rank == root) {
                MPI_Scatterv(sb, vc, vd, MPI_INT, MPI_IN_PLACE, c, MPI_INT, root, MPI_COMM_WORLD);
                fill(ex, c + GUARD, POISON); /* recvbuf never passed: untouched */
            } else {
                MPI_Scatterv(sb, vc, vd, MPI_INT, rb, c, MPI_INT, root, MPI_COMM_WORLD);
                fill(ex, c + GUARD, POISON);
                for (int i = 0; i < c; i++)
                    ex[i] = val3(root, rank, i);
            }
            CHECK_ARRAY(ex, rb, c + GUARD, "Scatterv%s root %d recvbuf", ip, root);
            fill(ex, n, POISON);
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < vc[r]; i++)
                        ex[vd[r] + i] = val3(root, r, i);
            CHECK_ARRAY(ex, sb, n, "Scatterv%s root %d modified sendbuf", ip, root);
        }
    }

    free(sb);
    free(rb);
    free(ex);
    free(vc);
    free(vd);
}

/* ---------------------------------------------------------------- part 2 */

static void part_allgather(int rank, int size)
{
    static const int counts[] = {0, 1, 7};
    int cap = size * 8 + GUARD;
    int *sb = xmalloc(sizeof(int) * cap);
    int *rb = xmalloc(sizeof(int) * cap);
    int *ex = xmalloc(sizeof(int) * cap);
    int *vc = xmalloc(sizeof(int) * size);
    int *vd = xmalloc(sizeof(int) * size);

    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int c = counts[k];
        int n = size * c + GUARD;
        fill(ex, n, POISON);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < c; i++)
                ex[r * c + i] = val(r, i);

        fill(sb, c + GUARD, POISON);
        for (int i = 0; i < c; i++)
            sb[i] = val(rank, i);
        fill(rb, n, POISON);
        MPI_Allgather(sb, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD);
        CHECK_ARRAY(ex, rb, n, "Allgather count %d recvbuf", c);
        for (int i = 0; i < c; i++)
            CHECK(val(rank, i), sb[i], "Allgather count %d modified sendbuf", c);

        fill(rb, n, POISON);
        for (int i = 0; i < c; i++)
            rb[rank * c + i] = val(rank, i);
        MPI_Allgather(MPI_IN_PLACE, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD);
        CHECK_ARRAY(ex, rb, n, "Allgather(IN_PLACE) count %d recvbuf", c);
    }

    for (int key = 0; key < 3; key++) {
        for (int r = 0; r < size; r++)
            vc[r] = vcount(r, key);
        int total = layout(vc, size, key, vd);
        int n = total + GUARD;
        int c = vc[rank];
        fill(ex, n, POISON);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < vc[r]; i++)
                ex[vd[r] + i] = val(r, i);

        for (int i = 0; i < c; i++)
            sb[i] = val(rank, i);
        fill(rb, n, POISON);
        MPI_Allgatherv(sb, c, MPI_INT, rb, vc, vd, MPI_INT, MPI_COMM_WORLD);
        CHECK_ARRAY(ex, rb, n, "Allgatherv key %d recvbuf", key);
        for (int i = 0; i < c; i++)
            CHECK(val(rank, i), sb[i], "Allgatherv key %d modified sendbuf", key);

        fill(rb, n, POISON);
        for (int i = 0; i < c; i++)
            rb[vd[rank] + i] = val(rank, i);
        MPI_Allgatherv(MPI_IN_PLACE, c, MPI_INT, rb, vc, vd, MPI_INT, MPI_COMM_WORLD);
        CHECK_ARRAY(ex, rb, n, "Allgatherv(IN_PLACE) key %d recvbuf", key);
    }

    free(sb);
    free(rb);
    free(ex);
    free(vc);
    free(vd);
}

/* ---------------------------------------------------------------- part 3 */

/* elements rank s sends to rank d in Alltoallv (0..3, zero for some pairs) */
static int a2a_count(int s, int d, int key) { return (s * 3 + d * 5 + key) % 4; }

static void part_alltoall(int rank, int size)
{
    static const int counts[] = {0, 1, 3};
    int cap = size * 8 + GUARD;
    int *sb = xmalloc(sizeof(int) * cap);
    int *rb = xmalloc(sizeof(int) * cap);
    int *ex = xmalloc(sizeof(int) * cap);
    int *sc = xmalloc(sizeof(int) * size), *sd = xmalloc(sizeof(int) * size);
    int *rc = xmalloc(sizeof(int) * size), *rd = xmalloc(sizeof(int) * size);

    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int c = counts[k];
        int n = size * c + GUARD;
        fill(sb, n, POISON);
        for (int d = 0; d < size; d++)
            for (int i = 0; i < c; i++)
                sb[d * c + i] = val3(rank, d, i);
        fill(rb, n, POISON);
        MPI_Alltoall(sb, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD);
        fill(ex, n, POISON);
        for (int s = 0; s < size; s++)
            for (int i = 0; i < c; i++)
                ex[s * c + i] = val3(s, rank, i);
        CHECK_ARRAY(ex, rb, n, "Alltoall count %d recvbuf", c);
        fill(ex, n, POISON);
        for (int d = 0; d < size; d++)
            for (int i = 0; i < c; i++)
                ex[d * c + i] = val3(rank, d, i);
        CHECK_ARRAY(ex, sb, n, "Alltoall count %d modified sendbuf", c);
    }

    for (int key = 0; key < 2; key++) {
        for (int p = 0; p < size; p++) {
            sc[p] = a2a_count(rank, p, key);
            rc[p] = a2a_count(p, rank, key);
        }
        int stotal = layout(sc, size, rank + key, sd);
        int rtotal = layout(rc, size, rank + 2 * key + 1, rd);
        fill(sb, stotal + GUARD, POISON);
        for (int d = 0; d < size; d++)
            for (int i = 0; i < sc[d]; i++)
                sb[sd[d] + i] = val3(rank, d, i);
        fill(rb, rtotal + GUARD, POISON);
        MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD);
        fill(ex, rtotal + GUARD, POISON);
        for (int s = 0; s < size; s++)
            for (int i = 0; i < rc[s]; i++)
                ex[rd[s] + i] = val3(s, rank, i);
        CHECK_ARRAY(ex, rb, rtotal + GUARD, "Alltoallv key %d recvbuf", key);
        fill(ex, stotal + GUARD, POISON);
        for (int d = 0; d < size; d++)
            for (int i = 0; i < sc[d]; i++)
                ex[sd[d] + i] = val3(rank, d, i);
        CHECK_ARRAY(ex, sb, stotal + GUARD, "Alltoallv key %d modified sendbuf", key);
    }

    free(sb);
    free(rb);
    free(ex);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
}

/* ---------------------------------------------------------------- part 4 */

/* reduce-scatter input element j of rank s: small integers -6..6 */
static int rsv(int s, int j) { return (s * 7 + j * 3 + 1) % 13 - 6; }

static long long rs_sum(int size, int j)
{
    long long e = 0;
    for (int s = 0; s < size; s++)
        e += rsv(s, j);
    return e;
}

static long long rs_max(int size, int j)
{
    long long e = rsv(0, j);
    for (int s = 1; s < size; s++)
        if (rsv(s, j) > e)
            e = rsv(s, j);
    return e;
}

/* One reduce-scatter check: block of rank `rank` is [off, off + c) of the
 * size-wide input of length total; vc == NULL means the _block variant. */
static void rs_one(int rank, int size, int c, int off, int total,
                   const int *vc, int inplace, const char *name, int key)
{
    int n = (total > c ? total : c) + GUARD;
    int *ib = xmalloc(sizeof(int) * n), *irb = xmalloc(sizeof(int) * n);
    int *iex = xmalloc(sizeof(int) * n);
    double *db = xmalloc(sizeof(double) * n), *drb = xmalloc(sizeof(double) * n);
    double *dex = xmalloc(sizeof(double) * n);
    const char *ip = inplace ? "(IN_PLACE)" : "";

    for (int j = 0; j < total; j++) {
        ib[j] = rsv(rank, j);
        db[j] = (double)rsv(rank, j);
    }
    fill(irb, n, POISON);
    filld(drb, n, POISON);
    if (inplace) {
        memcpy(irb, ib, sizeof(int) * total);
        memcpy(drb, db, sizeof(double) * total);
    }
    void *isend = inplace ? MPI_IN_PLACE : (void *)ib;
    void *dsend = inplace ? MPI_IN_PLACE : (void *)db;
    if (vc == NULL) {
        MPI_Reduce_scatter_block(isend, irb, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Reduce_scatter_block(dsend, drb, c, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    } else {
        MPI_Reduce_scatter(isend, irb, vc, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Reduce_scatter(dsend, drb, vc, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    for (int i = 0; i < c; i++) {
        iex[i] = (int)rs_sum(size, off + i);
        dex[i] = (double)rs_max(size, off + i);
    }
    /* in place, the rest of the buffer is unspecified; otherwise untouched */
    int chk = inplace ? c : n;
    for (int i = c; i < chk; i++) {
        iex[i] = POISON;
        dex[i] = POISON;
    }
    CHECK_ARRAY(iex, irb, chk, "%s%s MPI_SUM int count %d key %d recvbuf", name, ip, c, key);
    CHECK_ARRAY(dex, drb, chk, "%s%s MPI_MAX double count %d key %d recvbuf", name, ip, c, key);
    if (!inplace)
        for (int j = 0; j < total; j++) {
            CHECK(rsv(rank, j), ib[j], "%s modified int sendbuf", name);
            CHECK(rsv(rank, j), db[j], "%s modified double sendbuf", name);
        }
    free(ib);
    free(irb);
    free(iex);
    free(db);
    free(drb);
    free(dex);
}

static void part_reduce_scatter(int rank, int size)
{
    static const int counts[] = {0, 1, 3};
    int *vc = xmalloc(sizeof(int) * size);

    for (int inplace = 0; inplace < 2; inplace++) {
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            int c = counts[k];
            rs_one(rank, size, c, rank * c, size * c, NULL, inplace,
                   "Reduce_scatter_block", 0);
        }
        for (int key = 0; key < 3; key++) {
            int total = 0, off = 0;
            for (int r = 0; r < size; r++) {
                vc[r] = vcount(r, key);
                if (r < rank)
                    off += vc[r];
                total += vc[r];
            }
            rs_one(rank, size, vc[rank], off, total, vc, inplace,
                   "Reduce_scatter", key);
        }
    }
    free(vc);
}

/* ---------------------------------------------------------------- part 5 */

#define SCAN_N 5

static long long scan_in(int op, int r, int i)
{
    if (op == 0)
        return 1000LL * r + i - 2;
    /* products: factors 1, 2 and -1 only */
    return ((r + i) % 5 == 0) ? 2 : ((r + i) % 5 == 3) ? -1 : 1;
}

/* op over ranks 0..upto-1 (upto >= 1) */
static long long scan_expect(int op, int upto, int i)
{
    long long e = scan_in(op, 0, i);
    for (int s = 1; s < upto; s++)
        e = op == 0 ? e + scan_in(op, s, i) : e * scan_in(op, s, i);
    return e;
}

static void part_scan(int rank, int size)
{
    long long sb[SCAN_N], rb[SCAN_N + GUARD], ex[SCAN_N + GUARD];
    (void)size;

    for (int op = 0; op < 2; op++) {
        MPI_Op mop = op == 0 ? MPI_SUM : MPI_PROD;
        const char *on = op == 0 ? "MPI_SUM" : "MPI_PROD";
        for (int ex_scan = 0; ex_scan < 2; ex_scan++) {
            const char *cn = ex_scan ? "Exscan" : "Scan";
            for (int inplace = 0; inplace < 2; inplace++) {
                const char *ip = inplace ? "(IN_PLACE)" : "";
                for (int i = 0; i < SCAN_N; i++)
                    sb[i] = scan_in(op, rank, i);
                for (int i = 0; i < SCAN_N + GUARD; i++)
                    rb[i] = POISON;
                if (inplace)
                    for (int i = 0; i < SCAN_N; i++)
                        rb[i] = sb[i];
                void *s = inplace ? MPI_IN_PLACE : (void *)sb;
                if (ex_scan)
                    MPI_Exscan(s, rb, SCAN_N, MPI_LONG_LONG, mop, MPI_COMM_WORLD);
                else
                    MPI_Scan(s, rb, SCAN_N, MPI_LONG_LONG, mop, MPI_COMM_WORLD);
                for (int i = 0; i < SCAN_N + GUARD; i++)
                    ex[i] = POISON;
                int first = 0;
                if (ex_scan && rank == 0)
                    first = SCAN_N; /* undefined on rank 0: check guard only */
                else
                    for (int i = 0; i < SCAN_N; i++)
                        ex[i] = scan_expect(op, ex_scan ? rank : rank + 1, i);
                CHECK_ARRAY(ex + first, rb + first, SCAN_N + GUARD - first,
                            "%s%s %s long long recvbuf (from element %d)", cn, ip, on, first);
                for (int i = 0; i < SCAN_N; i++)
                    CHECK(scan_in(op, rank, i), sb[i], "%s%s %s modified sendbuf", cn, ip, on);
            }
        }
    }
}

/* ---------------------------------------------------------------- part 6 */

/* commutative: elementwise max of |x| on MPI_INT */
static int absmax2(int a, int b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    return a > b ? a : b;
}

static void absmax_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *a = in;
    int *b = inout;
    if (*dt != MPI_INT)
        fail("absmax user op called with a datatype other than MPI_INT", 1, 0, __LINE__);
    for (int i = 0; i < *len; i++)
        b[i] = absmax2(a[i], b[i]);
}

/* non-commutative: 2x2 matrix product (row-major), inout = in * inout */
static void mm(const long long *a, const long long *b, long long *c)
{
    long long c0 = a[0] * b[0] + a[1] * b[2];
    long long c1 = a[0] * b[1] + a[1] * b[3];
    long long c2 = a[2] * b[0] + a[3] * b[2];
    long long c3 = a[2] * b[1] + a[3] * b[3];
    c[0] = c0;
    c[1] = c1;
    c[2] = c2;
    c[3] = c3;
}

static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const long long *a = in;
    long long *b = inout;
    (void)dt;
    for (int k = 0; k < *len; k++)
        mm(a + 4 * k, b + 4 * k, b + 4 * k);
}

/* matrix k of rank r: small, mostly non-commuting, entries stay small */
static void mat(int r, int k, long long *m)
{
    switch ((r + 2 * k) % 4) {
    case 0: m[0] = 1; m[1] = 1 + r % 3; m[2] = 0; m[3] = 1; break;
    case 1: m[0] = 1; m[1] = 0; m[2] = 1 + (r + k) % 2; m[3] = 1; break;
    case 2: m[0] = 0; m[1] = -1; m[2] = 1; m[3] = 0; break;
    default: m[0] = 2; m[1] = 1; m[2] = 1; m[3] = 1; break;
    }
}

/* a0 * a1 * ... * a(upto-1), matrix k */
static void mat_prefix(int upto, int k, long long *e)
{
    long long m[4];
    mat(0, k, e);
    for (int s = 1; s < upto; s++) {
        mat(s, k, m);
        mm(e, m, e);
    }
}

#define AM_N 6
#define MAT_N 3

static int am_in(int r, int i) { return (r * 37 + i * 11) % 41 - 20; }

static int am_expect(int upto, int i)
{
    int e = am_in(0, i);
    for (int s = 1; s < upto; s++)
        e = absmax2(e, am_in(s, i));
    return e;
}

static void part_user_ops(int rank, int size)
{
    MPI_Op absmax, matmul;
    MPI_Datatype mat_t;
    int isb[AM_N], irb[AM_N + GUARD], iex[AM_N + GUARD];
    long long msb[4 * MAT_N], mrb[4 * MAT_N + GUARD], mex[4 * MAT_N + GUARD];

    MPI_Op_create(absmax_fn, 1, &absmax);
    MPI_Op_create(matmul_fn, 0, &matmul);
    MPI_Type_contiguous(4, MPI_LONG_LONG, &mat_t);
    MPI_Type_commit(&mat_t);

    for (int i = 0; i < AM_N; i++)
        isb[i] = am_in(rank, i);
    for (int k = 0; k < MAT_N; k++)
        mat(rank, k, msb + 4 * k);

    /* kind: 0 Reduce (to every root), 1 Allreduce, 2 Scan */
    for (int kind = 0; kind < 3; kind++) {
        int nroots = kind == 0 ? size : 1;
        const char *kn = kind == 0 ? "Reduce" : kind == 1 ? "Allreduce" : "Scan";
        for (int root = 0; root < nroots; root++) {
            fill(irb, AM_N + GUARD, POISON);
            for (int i = 0; i < 4 * MAT_N + GUARD; i++)
                mrb[i] = POISON;
            if (kind == 0) {
                MPI_Reduce(isb, irb, AM_N, MPI_INT, absmax, root, MPI_COMM_WORLD);
                MPI_Reduce(msb, mrb, MAT_N, mat_t, matmul, root, MPI_COMM_WORLD);
            } else if (kind == 1) {
                MPI_Allreduce(isb, irb, AM_N, MPI_INT, absmax, MPI_COMM_WORLD);
                MPI_Allreduce(msb, mrb, MAT_N, mat_t, matmul, MPI_COMM_WORLD);
            } else {
                MPI_Scan(isb, irb, AM_N, MPI_INT, absmax, MPI_COMM_WORLD);
                MPI_Scan(msb, mrb, MAT_N, mat_t, matmul, MPI_COMM_WORLD);
            }
            fill(iex, AM_N + GUARD, POISON);
            for (int i = 0; i < 4 * MAT_N + GUARD; i++)
                mex[i] = POISON;
            if (kind != 0 || rank == root) {
                int upto = kind == 2 ? rank + 1 : size;
                for (int i = 0; i < AM_N; i++)
                    iex[i] = am_expect(upto, i);
                for (int k = 0; k < MAT_N; k++)
                    mat_prefix(upto, k, mex + 4 * k);
            }
            CHECK_ARRAY(iex, irb, AM_N + GUARD, "%s commutative user op (absmax) root %d recvbuf", kn, root);
            CHECK_ARRAY(mex, mrb, 4 * MAT_N + GUARD,
                        "%s non-commutative user op (2x2 matrix product) root %d recvbuf", kn, root);
            for (int i = 0; i < AM_N; i++)
                CHECK(am_in(rank, i), isb[i], "%s absmax modified sendbuf", kn);
            for (int k = 0; k < MAT_N; k++) {
                long long m[4];
                mat(rank, k, m);
                for (int j = 0; j < 4; j++)
                    CHECK(m[j], msb[4 * k + j], "%s matmul modified sendbuf", kn);
            }
        }
    }

    MPI_Type_free(&mat_t);
    MPI_Op_free(&absmax);
    MPI_Op_free(&matmul);
}

/* ---------------------------------------------------------------- part 7 */

static void part_derived(int rank, int size)
{
    MPI_Datatype vec2, c3, vs;
    int cap = size * 10 + GUARD;
    int *sb = xmalloc(sizeof(int) * cap);
    int *rb = xmalloc(sizeof(int) * cap);
    int *ex = xmalloc(sizeof(int) * cap);

    /* Gather: 1 x vector(4, 1, 2) = elements 0, 2, 4, 6 -> 4 MPI_INT */
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec2);
    MPI_Type_commit(&vec2);
    for (int i = 0; i < 7; i++)
        sb[i] = val(rank, i);
    for (int root = 0; root < size; root++) {
        int n = size * 4 + GUARD;
        fill(rb, n, POISON);
        MPI_Gather(sb, 1, vec2, rb, 4, MPI_INT, root, MPI_COMM_WORLD);
        fill(ex, n, POISON);
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int j = 0; j < 4; j++)
                    ex[r * 4 + j] = val(r, 2 * j);
        CHECK_ARRAY(ex, rb, n, "Gather of vector(4,1,2) root %d recvbuf", root);
    }
    for (int i = 0; i < 7; i++)
        CHECK(val(rank, i), sb[i], "Gather of vector modified sendbuf");
    MPI_Type_free(&vec2);

    /* Allgather: 2 x contiguous(3, MPI_INT) per rank */
    MPI_Type_contiguous(3, MPI_INT, &c3);
    MPI_Type_commit(&c3);
    {
        int n = size * 6 + GUARD;
        for (int i = 0; i < 6; i++)
            sb[i] = val(rank, i);
        fill(rb, n, POISON);
        MPI_Allgather(sb, 2, c3, rb, 2, c3, MPI_COMM_WORLD);
        fill(ex, n, POISON);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 6; i++)
                ex[r * 6 + i] = val(r, i);
        CHECK_ARRAY(ex, rb, n, "Allgather of contiguous(3) recvbuf");
    }
    MPI_Type_free(&c3);

    /* Alltoall: 2 x vector(3, 1, 2) (extent 5) sent per destination and
     * received per source; the holes of the receive type stay untouched. */
    MPI_Type_vector(3, 1, 2, MPI_INT, &vs);
    MPI_Type_commit(&vs);
    {
        int ns = size * 10 + GUARD, nr = ns;
        fill(sb, ns, POISON);
        for (int d = 0; d < size; d++)
            for (int j = 0; j < 2; j++)
                for (int t = 0; t < 3; t++)
                    sb[(d * 2 + j) * 5 + 2 * t] = val3(rank, d, j * 3 + t);
        fill(rb, nr, POISON);
        MPI_Alltoall(sb, 2, vs, rb, 2, vs, MPI_COMM_WORLD);
        fill(ex, nr, POISON);
        for (int s = 0; s < size; s++)
            for (int j = 0; j < 2; j++)
                for (int t = 0; t < 3; t++)
                    ex[(s * 2 + j) * 5 + 2 * t] = val3(s, rank, j * 3 + t);
        CHECK_ARRAY(ex, rb, nr, "Alltoall of vector(3,1,2) recvbuf");
        fill(ex, ns, POISON);
        for (int d = 0; d < size; d++)
            for (int j = 0; j < 2; j++)
                for (int t = 0; t < 3; t++)
                    ex[(d * 2 + j) * 5 + 2 * t] = val3(rank, d, j * 3 + t);
        CHECK_ARRAY(ex, sb, ns, "Alltoall of vector modified sendbuf");
    }
    MPI_Type_free(&vs);

    free(sb);
    free(rb);
    free(ex);
}

/* ---------------------------------------------------------------- part 8 */

#define SN 5

static void part_self(int rank)
{
    MPI_Comm self = MPI_COMM_SELF;
    int srank = -1, ssize = -1;
    int sb[SN + GUARD], rb[2 * SN + GUARD], ex[2 * SN + GUARD];
    int n = 2 * SN + GUARD;
    int cnt[1] = {SN}, d0[1] = {0}, d3[1] = {3};

    MPI_Comm_rank(self, &srank);
    MPI_Comm_size(self, &ssize);
    CHECK(0, srank, "MPI_COMM_SELF rank");
    CHECK(1, ssize, "MPI_COMM_SELF size");

    for (int i = 0; i < SN; i++)
        sb[i] = val(rank, i);
    /* expected: a copy of sb at offset 0 (or 3 for the v variants) */
    fill(ex, n, POISON);
    for (int i = 0; i < SN; i++)
        ex[i] = val(rank, i);

#define SELF_COPY(call, name)                                   \
    do {                                                        \
        fill(rb, n, POISON);                                    \
        call;                                                   \
        CHECK_ARRAY(ex, rb, n, "MPI_COMM_SELF %s recvbuf", name); \
    } while (0)

    SELF_COPY(MPI_Gather(sb, SN, MPI_INT, rb, SN, MPI_INT, 0, self), "Gather");
    SELF_COPY(MPI_Scatter(sb, SN, MPI_INT, rb, SN, MPI_INT, 0, self), "Scatter");
    SELF_COPY(MPI_Allgather(sb, SN, MPI_INT, rb, SN, MPI_INT, self), "Allgather");
    SELF_COPY(MPI_Alltoall(sb, SN, MPI_INT, rb, SN, MPI_INT, self), "Alltoall");
    SELF_COPY(MPI_Reduce_scatter_block(sb, rb, SN, MPI_INT, MPI_SUM, self),
              "Reduce_scatter_block");
    SELF_COPY(MPI_Reduce_scatter(sb, rb, cnt, MPI_INT, MPI_SUM, self), "Reduce_scatter");
    SELF_COPY(MPI_Scan(sb, rb, SN, MPI_INT, MPI_SUM, self), "Scan");
    SELF_COPY(MPI_Reduce(sb, rb, SN, MPI_INT, MPI_MAX, 0, self), "Reduce");
    SELF_COPY(MPI_Allreduce(sb, rb, SN, MPI_INT, MPI_PROD, self), "Allreduce");
    SELF_COPY(MPI_Scatterv(sb, cnt, d0, MPI_INT, rb, SN, MPI_INT, 0, self), "Scatterv");

    /* Exscan on a single rank: result undefined; guard must stay intact */
    fill(rb, n, POISON);
    MPI_Exscan(sb, rb, SN, MPI_INT, MPI_SUM, self);
    CHECK_ARRAY(ex + SN, rb + SN, n - SN, "MPI_COMM_SELF Exscan wrote past count");

    /* displaced variants: data lands at offset 3 */
    fill(ex, n, POISON);
    for (int i = 0; i < SN; i++)
        ex[3 + i] = val(rank, i);
    SELF_COPY(MPI_Gatherv(sb, SN, MPI_INT, rb, cnt, d3, MPI_INT, 0, self), "Gatherv");
    /* Under plain MPICH (the reference run, docs/testing.md): MPICH 4.0.2
     * writes an MPI_COMM_SELF Allgatherv at offset 0 whatever the
     * displacement, so it is not checked there. */
#ifndef MPICH_VERSION
    SELF_COPY(MPI_Allgatherv(sb, SN, MPI_INT, rb, cnt, d3, MPI_INT, self), "Allgatherv");
#endif
    SELF_COPY(MPI_Alltoallv(sb, cnt, d0, MPI_INT, rb, cnt, d3, MPI_INT, self), "Alltoallv");

    /* MPI_IN_PLACE: nothing moves */
    SELF_COPY((memcpy(rb + 3, sb, sizeof(int) * SN),
               MPI_Allgatherv(MPI_IN_PLACE, SN, MPI_INT, rb, cnt, d3, MPI_INT, self)),
              "Allgatherv(IN_PLACE)");
    fill(ex, n, POISON);
    for (int i = 0; i < SN; i++)
        ex[i] = val(rank, i);
    SELF_COPY((memcpy(rb, sb, sizeof(int) * SN),
               MPI_Gather(MPI_IN_PLACE, SN, MPI_INT, rb, SN, MPI_INT, 0, self)),
              "Gather(IN_PLACE)");
    SELF_COPY((memcpy(rb, sb, sizeof(int) * SN),
               MPI_Allgather(MPI_IN_PLACE, SN, MPI_INT, rb, SN, MPI_INT, self)),
              "Allgather(IN_PLACE)");
    SELF_COPY((memcpy(rb, sb, sizeof(int) * SN),
               MPI_Scan(MPI_IN_PLACE, rb, SN, MPI_INT, MPI_SUM, self)),
              "Scan(IN_PLACE)");
    SELF_COPY((memcpy(rb, sb, sizeof(int) * SN),
               MPI_Reduce_scatter_block(MPI_IN_PLACE, rb, SN, MPI_INT, MPI_SUM, self)),
              "Reduce_scatter_block(IN_PLACE)");
#undef SELF_COPY

    /* the non-commutative user op on one rank: the input itself */
    {
        MPI_Op matmul;
        MPI_Datatype mat_t;
        long long m[4 * MAT_N], r[4 * MAT_N];
        MPI_Op_create(matmul_fn, 0, &matmul);
        MPI_Type_contiguous(4, MPI_LONG_LONG, &mat_t);
        MPI_Type_commit(&mat_t);
        for (int k = 0; k < MAT_N; k++)
            mat(rank, k, m + 4 * k);
        for (int i = 0; i < 4 * MAT_N; i++)
            r[i] = POISON;
        MPI_Allreduce(m, r, MAT_N, mat_t, matmul, self);
        CHECK_ARRAY(m, r, 4 * MAT_N, "MPI_COMM_SELF Allreduce with matmul op");
        for (int i = 0; i < 4 * MAT_N; i++)
            r[i] = POISON;
        MPI_Scan(m, r, MAT_N, mat_t, matmul, self);
        CHECK_ARRAY(m, r, 4 * MAT_N, "MPI_COMM_SELF Scan with matmul op");
        MPI_Type_free(&mat_t);
        MPI_Op_free(&matmul);
    }
}

/* ---------------------------------------------------------------- part 9 */

static int pval(int src, int i) { return -(1000 * src + i) - 1; }

static void part_p2p_interleave(int rank, int size)
{
    static const int sizes[] = {1, 257, 70000};
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    int *ps = xmalloc(sizeof(int) * 70000);
    int *pr = xmalloc(sizeof(int) * (70000 + GUARD));
    int *ag = xmalloc(sizeof(int) * (size + GUARD));

    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        MPI_Request req[2];
        for (int i = 0; i < n; i++)
            ps[i] = pval(rank, i);
        fill(pr, n + GUARD, POISON);
        fill(ag, size + GUARD, POISON);
        int mine = val(rank, (int)k);

        MPI_Irecv(pr, n, MPI_INT, left, 5, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(ps, n, MPI_INT, right, 5, MPI_COMM_WORLD, &req[1]);
        MPI_Allgather(&mine, 1, MPI_INT, ag, 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);

        for (int r = 0; r < size; r++)
            CHECK(val(r, (int)k), ag[r], "Allgather interleaved with p2p (n %d) element %d", n, r);
        for (int r = size; r < size + GUARD; r++)
            CHECK(POISON, ag[r], "Allgather interleaved with p2p wrote past count");
        for (int i = 0; i < n; i++)
            if (pr[i] != pval(left, i))
                CHECK(pval(left, i), pr[i], "p2p payload (n %d) from rank %d element %d", n, left, i);
        for (int i = n; i < n + GUARD; i++)
            CHECK(POISON, pr[i], "p2p receive (n %d) wrote past count", n);
        for (int i = 0; i < n; i++)
            if (ps[i] != pval(rank, i))
                CHECK(pval(rank, i), ps[i], "p2p sendbuf (n %d) modified element %d", n, i);
    }
    free(ps);
    free(pr);
    free(ag);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    part_gather_scatter(rank, size);
    part_allgather(rank, size);
    part_alltoall(rank, size);
    part_reduce_scatter(rank, size);
    part_scan(rank, size);
    part_user_ops(rank, size);
    part_derived(rank, size);
    part_self(rank);
    part_p2p_interleave(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
