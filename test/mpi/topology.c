/*
 * topology -- Cartesian process topologies and neighbourhood collectives
 * (MPI-3.1 ch. 7).
 *
 *  1. MPI_Dims_create: a table of (nnodes, ndims, preset dims) cases with
 *     their unique answers (balanced, non-increasing in the free entries,
 *     preset entries kept), and for the world size with 1..4 dimensions:
 *     the product is the size, the entries are non-increasing, and in 2-D
 *     the split is the most balanced one.
 *  2. MPI_Cart_create (reorder = 0, so cart rank == world rank) over all
 *     ranks in 1-D (periodic and not), 2-D (each combination of periods)
 *     and 3-D, with dims from MPI_Dims_create: MPI_Topo_test (MPI_CART on
 *     the new communicator and on its MPI_Comm_dup, MPI_UNDEFINED on world),
 *     MPI_Cartdim_get, MPI_Cart_get, MPI_Cart_coords and MPI_Cart_rank of
 *     every rank (row-major), MPI_Cart_rank of out-of-range coordinates on
 *     periodic dimensions (wrapped), MPI_Cart_shift with displacements 1,
 *     -1, 2 and 0 (MPI_PROC_NULL past non-periodic edges).  MPI_Cart_create
 *     over size-1 ranks: the last rank gets MPI_COMM_NULL.
 *  3. MPI_Cart_sub: every non-empty subset of dimensions kept: size, rank,
 *     dims, periods and coordinates of the sub-grid (Topo_test MPI_CART,
 *     Cartdim_get), and an Allreduce over it.
 *  4. Halo exchange on 2-D grids with MPI_Sendrecv (rows contiguous,
 *     columns a vector type); halos at non-periodic edges stay untouched.
 *  5. MPI_Neighbor_allgather, MPI_Neighbor_allgatherv, MPI_Neighbor_alltoall
 *     and MPI_Neighbor_alltoallv on every grid above: neighbour order is
 *     (dim 0 -, dim 0 +, dim 1 -, ...); blocks of MPI_PROC_NULL neighbours
 *     and gaps stay untouched; send buffers unchanged.  For alltoall the
 *     block received from the "-" neighbour is the one it sent to its "+"
 *     neighbour; when the same rank is both neighbours of a dimension
 *     (periodic dimension of size 1 or 2) MPI-3.1 does not say which of
 *     its two blocks lands where, so then only the set is checked.
 *
 * Works for any world size >= 1.  Prints "OK topology" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "topology"
#include "mpitest.h"

#define MAXD 4
#define POISON (-777)
#define GUARD 4

static void fill(int *b, int n, int v)
{
    for (int i = 0; i < n; i++)
        b[i] = v;
}

/* ---------------------------------------------------------------- part 1 */

static void part_dims(void)
{
    static const struct {
        int nnodes, ndims;
        int in[MAXD], out[MAXD];
    } cases[] = {
        {1, 1, {0}, {1}},
        {5, 1, {0}, {5}},
        {1, 3, {0, 0, 0}, {1, 1, 1}},
        {6, 2, {0, 0}, {3, 2}},
        {7, 2, {0, 0}, {7, 1}},
        {12, 2, {0, 0}, {4, 3}},
        {16, 2, {0, 0}, {4, 4}},
        {24, 2, {0, 0}, {6, 4}},
        {36, 2, {0, 0}, {6, 6}},
        {12, 3, {0, 0, 0}, {3, 2, 2}},
        {16, 3, {0, 0, 0}, {4, 2, 2}},
        {24, 3, {0, 0, 0}, {4, 3, 2}},
        {30, 3, {0, 0, 0}, {5, 3, 2}},
        {64, 3, {0, 0, 0}, {4, 4, 4}},
        {16, 4, {0, 0, 0, 0}, {2, 2, 2, 2}},
        {6, 3, {0, 3, 0}, {2, 3, 1}},
        {8, 2, {2, 0}, {2, 4}},
        {30, 2, {0, 5}, {6, 5}},
        {12, 3, {0, 0, 2}, {3, 2, 2}},
        {24, 3, {0, 1, 0}, {6, 1, 4}},
        {9, 2, {3, 3}, {3, 3}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int dims[MAXD];
        memcpy(dims, cases[k].in, sizeof dims);
        MPI_Dims_create(cases[k].nnodes, cases[k].ndims, dims);
        for (int d = 0; d < cases[k].ndims; d++)
            CHECK(cases[k].out[d], dims[d], "Dims_create(%d, %d, {%d,%d,%d,%d}) dims[%d]",
                  cases[k].nnodes, cases[k].ndims, cases[k].in[0], cases[k].in[1],
                  cases[k].in[2], cases[k].in[3], d);
    }

    for (int nd = 1; nd <= MAXD; nd++) {
        int dims[MAXD] = {0, 0, 0, 0};
        MPI_Dims_create(wsize, nd, dims);
        long long prod = 1;
        for (int d = 0; d < nd; d++) {
            CHECK_TRUE(dims[d] >= 1, "Dims_create(%d, %d) dims[%d] = %d >= 1", wsize, nd, d, dims[d]);
            if (d > 0)
                CHECK_TRUE(dims[d - 1] >= dims[d], "Dims_create(%d, %d) non-increasing at %d",
                           wsize, nd, d);
            prod *= dims[d];
        }
        CHECK(wsize, prod, "Dims_create(%d, %d) product", wsize, nd);
        if (nd == 2) {
            int best = 1;
            for (int f = 1; f * f <= wsize; f++)
                if (wsize % f == 0)
                    best = f;
            CHECK(best, dims[1], "Dims_create(%d, 2) smaller factor", wsize);
        }
    }
}

/* ---------------------------------------------------------------- helpers */

struct grid {
    int nd;
    int dims[MAXD], periods[MAXD];
};

static void rank_to_coords(const struct grid *g, int r, int *c)
{
    for (int d = g->nd - 1; d >= 0; d--) {
        c[d] = r % g->dims[d];
        r /= g->dims[d];
    }
}

/* rank at coordinates c (wrapped on periodic dims), MPI_PROC_NULL outside */
static int coords_to_rank(const struct grid *g, const int *c)
{
    int r = 0;
    for (int d = 0; d < g->nd; d++) {
        int x = c[d];
        if (g->periods[d])
            x = ((x % g->dims[d]) + g->dims[d]) % g->dims[d];
        else if (x < 0 || x >= g->dims[d])
            return MPI_PROC_NULL;
        r = r * g->dims[d] + x;
    }
    return r;
}

static int shifted(const struct grid *g, int r, int dim, int disp)
{
    int c[MAXD];
    rank_to_coords(g, r, c);
    c[dim] += disp;
    return coords_to_rank(g, c);
}

/* neighbour list of rank r in MPI order: dim 0 -, dim 0 +, dim 1 -, ... */
static void neighbours(const struct grid *g, int r, int *nb)
{
    for (int d = 0; d < g->nd; d++) {
        nb[2 * d] = shifted(g, r, d, -1);
        nb[2 * d + 1] = shifted(g, r, d, +1);
    }
}

/* The grid's name for messages, in the caller's buffer (no static one:
 * the ranks of a Tucana process would share it). */
struct gname_buf { char s[128]; };
static const char *gname_into(const struct grid *g, struct gname_buf *out)
{
    char *buf = out->s;
    int n = snprintf(buf, sizeof out->s, "%dd grid", g->nd);
    for (int d = 0; d < g->nd && n < (int)sizeof out->s; d++)
        n += snprintf(buf + n, sizeof out->s - (size_t)n, "%s%d%s", d ? "x" : " ", g->dims[d],
                      g->periods[d] ? "p" : "");
    return buf;
}

/* ---------------------------------------------------------------- part 2 */

static void check_cart_basics(MPI_Comm cart, const struct grid *g)
{
    struct gname_buf gb_;
    const char *gn = gname_into(g, &gb_);
    int t = -1, nd = -1, r = -1, s = -1;
    int dims[MAXD], periods[MAXD], coords[MAXD], c[MAXD];

    MPI_Topo_test(cart, &t);
    CHECK(MPI_CART, t, "%s: Topo_test", gn);
    MPI_Cartdim_get(cart, &nd);
    CHECK(g->nd, nd, "%s: Cartdim_get", gn);
    MPI_Comm_rank(cart, &r);
    MPI_Comm_size(cart, &s);
    CHECK(wrank, r, "%s: rank with reorder = 0", gn);
    CHECK(wsize, s, "%s: size", gn);
    MPI_Cart_get(cart, MAXD, dims, periods, coords);
    rank_to_coords(g, r, c);
    for (int d = 0; d < g->nd; d++) {
        CHECK(g->dims[d], dims[d], "%s: Cart_get dims[%d]", gn, d);
        CHECK(g->periods[d] != 0, periods[d] != 0, "%s: Cart_get periods[%d]", gn, d);
        CHECK(c[d], coords[d], "%s: Cart_get coords[%d]", gn, d);
    }

    for (int q = 0; q < s; q++) {
        int cc[MAXD], rr = -1;
        rank_to_coords(g, q, c);
        MPI_Cart_coords(cart, q, g->nd, cc);
        for (int d = 0; d < g->nd; d++)
            CHECK(c[d], cc[d], "%s: Cart_coords(%d)[%d]", gn, q, d);
        MPI_Cart_rank(cart, cc, &rr);
        CHECK(q, rr, "%s: Cart_rank of coords of %d", gn, q);
        /* out-of-range coordinates on periodic dimensions wrap */
        for (int d = 0; d < g->nd; d++) {
            if (!g->periods[d])
                continue;
            for (int k = -2; k <= 2; k++) {
                if (k == 0)
                    continue;
                memcpy(cc, c, sizeof cc);
                cc[d] += k * g->dims[d] + (k > 0 ? 1 : -1);
                int want = shifted(g, q, d, k > 0 ? 1 : -1);
                MPI_Cart_rank(cart, cc, &rr);
                CHECK(want, rr, "%s: Cart_rank of rank %d with coord %d = %d", gn, q, d, cc[d]);
            }
        }
    }

    static const int disps[] = {1, -1, 2, 0, -3};
    for (int d = 0; d < g->nd; d++)
        for (size_t k = 0; k < sizeof disps / sizeof disps[0]; k++) {
            int src = -5, dst = -5;
            MPI_Cart_shift(cart, d, disps[k], &src, &dst);
            CHECK(shifted(g, r, d, -disps[k]), src, "%s: Cart_shift(dim %d, disp %d) source", gn, d,
                  disps[k]);
            CHECK(shifted(g, r, d, disps[k]), dst, "%s: Cart_shift(dim %d, disp %d) dest", gn, d,
                  disps[k]);
        }

    /* a dup keeps the topology */
    MPI_Comm dup;
    MPI_Comm_dup(cart, &dup);
    MPI_Topo_test(dup, &t);
    CHECK(MPI_CART, t, "%s: Topo_test of a dup", gn);
    MPI_Cart_get(dup, MAXD, dims, periods, coords);
    for (int d = 0; d < g->nd; d++)
        CHECK(g->dims[d], dims[d], "%s: Cart_get of a dup dims[%d]", gn, d);
    MPI_Comm_free(&dup);
}

/* ---------------------------------------------------------------- part 3 */

static void check_cart_sub(MPI_Comm cart, const struct grid *g)
{
    struct gname_buf gb_;
    const char *gn = gname_into(g, &gb_);
    int mine[MAXD];
    rank_to_coords(g, wrank, mine);
    /* mask 0 (drop every dimension) is left out: Open MPI 4.1 gives every
     * rank a one-member communicator, MPICH 4.0 gives some ranks
     * MPI_COMM_NULL */
    for (int mask = 1; mask < (1 << g->nd); mask++) {
        int remain[MAXD], nkeep = 0, esize = 1, erank = 0;
        for (int d = 0; d < g->nd; d++) {
            remain[d] = (mask >> d) & 1;
            if (remain[d]) {
                esize *= g->dims[d];
                erank = erank * g->dims[d] + mine[d];
                nkeep++;
            }
        }
        MPI_Comm sub;
        MPI_Cart_sub(cart, remain, &sub);
        CHECK_TRUE(sub != MPI_COMM_NULL, "%s: Cart_sub(mask %d) not MPI_COMM_NULL", gn, mask);
        int r = -1, s = -1;
        MPI_Comm_rank(sub, &r);
        MPI_Comm_size(sub, &s);
        CHECK(esize, s, "%s: Cart_sub(mask %d) size", gn, mask);
        CHECK(erank, r, "%s: Cart_sub(mask %d) rank", gn, mask);
        {
            int t = -1, nd = -1, dims[MAXD], periods[MAXD], coords[MAXD];
            MPI_Topo_test(sub, &t);
            CHECK(MPI_CART, t, "%s: Cart_sub(mask %d) Topo_test", gn, mask);
            MPI_Cartdim_get(sub, &nd);
            CHECK(nkeep, nd, "%s: Cart_sub(mask %d) Cartdim_get", gn, mask);
            MPI_Cart_get(sub, MAXD, dims, periods, coords);
            for (int d = 0, k = 0; d < g->nd; d++) {
                if (!remain[d])
                    continue;
                CHECK(g->dims[d], dims[k], "%s: Cart_sub(mask %d) dims[%d]", gn, mask, k);
                CHECK(g->periods[d] != 0, periods[k] != 0, "%s: Cart_sub(mask %d) periods[%d]", gn,
                      mask, k);
                CHECK(mine[d], coords[k], "%s: Cart_sub(mask %d) coords[%d]", gn, mask, k);
                k++;
            }
        }
        /* members: the world ranks that agree with me on the dropped dims */
        long long v = wrank, sum = -1, esum = 0;
        MPI_Allreduce(&v, &sum, 1, MPI_LONG_LONG, MPI_SUM, sub);
        for (int q = 0; q < wsize; q++) {
            int c[MAXD], same = 1;
            rank_to_coords(g, q, c);
            for (int d = 0; d < g->nd; d++)
                if (!remain[d] && c[d] != mine[d])
                    same = 0;
            if (same)
                esum += q;
        }
        CHECK(esum, sum, "%s: Cart_sub(mask %d) Allreduce of world ranks", gn, mask);
        MPI_Comm_free(&sub);
    }
}

/* ---------------------------------------------------------------- part 4 */

#define HX 4
#define HY 3
static int hval(int r, int i, int j) { return r * 1000 + i * 10 + j; }

static void halo_exchange(MPI_Comm cart, const struct grid *g)
{
    struct gname_buf gb_;
    const char *gn = gname_into(g, &gb_);
    int a[(HX + 2) * (HY + 2)];
#define A(i, j) a[(i) * (HY + 2) + (j)]
    fill(a, (HX + 2) * (HY + 2), POISON);
    for (int i = 1; i <= HX; i++)
        for (int j = 1; j <= HY; j++)
            A(i, j) = hval(wrank, i, j);

    int lo0, hi0, lo1, hi1;
    MPI_Cart_shift(cart, 0, 1, &lo0, &hi0);
    MPI_Cart_shift(cart, 1, 1, &lo1, &hi1);

    /* dim 0: rows (contiguous) */
    MPI_Sendrecv(&A(1, 1), HY, MPI_INT, lo0, 1, &A(HX + 1, 1), HY, MPI_INT, hi0, 1, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&A(HX, 1), HY, MPI_INT, hi0, 2, &A(0, 1), HY, MPI_INT, lo0, 2, cart,
                 MPI_STATUS_IGNORE);
    /* dim 1: columns (vector) */
    MPI_Datatype colt;
    MPI_Type_vector(HX, 1, HY + 2, MPI_INT, &colt);
    MPI_Type_commit(&colt);
    MPI_Sendrecv(&A(1, 1), 1, colt, lo1, 3, &A(1, HY + 1), 1, colt, hi1, 3, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&A(1, HY), 1, colt, hi1, 4, &A(1, 0), 1, colt, lo1, 4, cart, MPI_STATUS_IGNORE);
    MPI_Type_free(&colt);

    for (int i = 0; i <= HX + 1; i++)
        for (int j = 0; j <= HY + 1; j++) {
            int e;
            int edge_i = (i == 0 || i == HX + 1), edge_j = (j == 0 || j == HY + 1);
            if (edge_i && edge_j)
                e = POISON; /* corners are never exchanged */
            else if (!edge_i && !edge_j)
                e = hval(wrank, i, j);
            else if (i == 0)
                e = lo0 == MPI_PROC_NULL ? POISON : hval(lo0, HX, j);
            else if (i == HX + 1)
                e = hi0 == MPI_PROC_NULL ? POISON : hval(hi0, 1, j);
            else if (j == 0)
                e = lo1 == MPI_PROC_NULL ? POISON : hval(lo1, i, HY);
            else
                e = hi1 == MPI_PROC_NULL ? POISON : hval(hi1, i, 1);
            CHECK(e, A(i, j), "%s: halo exchange element (%d,%d)", gn, i, j);
        }
#undef A
}

/* ---------------------------------------------------------------- part 5 */

#define NK 3
static int agval(int r, int i) { return r * 100 + i + 1; }
static int agcount(int r) { return 1 + r % 3; }
static int a2val(int s, int j, int i) { return s * 10000 + j * 100 + i + 1; }
static int a2count(int s, int d) { return 1 + (s + 2 * d) % 3; }

/* Received block l from src (= nb[l]) must be src's block j for some j with
 * src's j-th neighbour == me; distinct l with the same src use distinct j. */
static void check_a2a_block(const struct grid *g, const int *nb, int nn, const int *rb,
                            const int *displs, const int *counts, int l, const char *what)
{
    struct gname_buf gb_;
    const char *gn = gname_into(g, &gb_);
    int src = nb[l];
    int snb[2 * MAXD];
    neighbours(g, src, snb);
    int v0 = rb[displs[l]];
    int j = (v0 - 1) / 100 % 100;
    CHECK(src, (v0 - 1) / 10000, "%s: %s block %d: sender encoded in the data", gn, what, l);
    CHECK_TRUE(j >= 0 && j < nn && snb[j] == wrank,
               "%s: %s block %d from %d: its block %d is addressed to me", gn, what, l, src, j);
    int twin = 0; /* the same rank is both neighbours of this dimension */
    for (int m = 0; m < nn; m++)
        if (m != l && nb[m] == src) {
            twin = 1;
            CHECK_TRUE(rb[displs[m]] != v0, "%s: %s blocks %d and %d hold the same block of %d",
                       gn, what, l, m, src);
        }
    if (!twin) {
        /* unambiguous: the "-" neighbour's "+" block and vice versa */
        CHECK(l ^ 1, j, "%s: %s block %d from %d came from its block", gn, what, l, src);
    }
    for (int i = 0; i < counts[l]; i++)
        CHECK(a2val(src, j, i), rb[displs[l] + i], "%s: %s block %d element %d", gn, what, l, i);
}

static void neighbour_colls(MPI_Comm cart, const struct grid *g)
{
    struct gname_buf gb_;
    const char *gn = gname_into(g, &gb_);
    int nn = 2 * g->nd;
    int nb[2 * MAXD];
    neighbours(g, wrank, nb);

    int cap = nn * (NK + 4) + GUARD;
    int *sb = xmalloc(sizeof(int) * (size_t)cap);
    int *rb = xmalloc(sizeof(int) * (size_t)cap);
    int *ex = xmalloc(sizeof(int) * (size_t)cap);
    int sc[2 * MAXD], sd[2 * MAXD], rc[2 * MAXD], rd[2 * MAXD];

    /* Neighbor_allgather */
    for (int i = 0; i < NK; i++)
        sb[i] = agval(wrank, i);
    fill(rb, cap, POISON);
    MPI_Neighbor_allgather(sb, NK, MPI_INT, rb, NK, MPI_INT, cart);
    fill(ex, cap, POISON);
    for (int l = 0; l < nn; l++)
        if (nb[l] != MPI_PROC_NULL)
            for (int i = 0; i < NK; i++)
                ex[l * NK + i] = agval(nb[l], i);
    for (int k = 0; k < cap; k++)
        CHECK(ex[k], rb[k], "%s: Neighbor_allgather recvbuf element %d", gn, k);
    for (int i = 0; i < NK; i++)
        CHECK(agval(wrank, i), sb[i], "%s: Neighbor_allgather modified sendbuf", gn);

    /* Neighbor_allgatherv: counts by sender, displacements reversed with gaps */
    {
        int off = 0;
        for (int l = nn - 1; l >= 0; l--) {
            rc[l] = nb[l] == MPI_PROC_NULL ? 2 : agcount(nb[l]);
            rd[l] = off;
            off += rc[l] + 1;
        }
        int c = agcount(wrank);
        for (int i = 0; i < c; i++)
            sb[i] = agval(wrank, i);
        fill(rb, cap, POISON);
        MPI_Neighbor_allgatherv(sb, c, MPI_INT, rb, rc, rd, MPI_INT, cart);
        fill(ex, cap, POISON);
        for (int l = 0; l < nn; l++)
            if (nb[l] != MPI_PROC_NULL)
                for (int i = 0; i < rc[l]; i++)
                    ex[rd[l] + i] = agval(nb[l], i);
        for (int k = 0; k < cap; k++)
            CHECK(ex[k], rb[k], "%s: Neighbor_allgatherv recvbuf element %d", gn, k);
    }

    /* Neighbor_alltoall */
    for (int j = 0; j < nn; j++)
        for (int i = 0; i < NK; i++)
            sb[j * NK + i] = a2val(wrank, j, i);
    fill(rb, cap, POISON);
    MPI_Neighbor_alltoall(sb, NK, MPI_INT, rb, NK, MPI_INT, cart);
    for (int l = 0; l < nn; l++) {
        rc[l] = NK;
        rd[l] = l * NK;
    }
    for (int l = 0; l < nn; l++) {
        if (nb[l] == MPI_PROC_NULL) {
            for (int i = 0; i < NK; i++)
                CHECK(POISON, rb[l * NK + i], "%s: Neighbor_alltoall MPI_PROC_NULL block %d", gn, l);
        } else {
            check_a2a_block(g, nb, nn, rb, rd, rc, l, "Neighbor_alltoall");
        }
    }
    for (int k = nn * NK; k < cap; k++)
        CHECK(POISON, rb[k], "%s: Neighbor_alltoall wrote past the blocks", gn);
    for (int j = 0; j < nn; j++)
        for (int i = 0; i < NK; i++)
            CHECK(a2val(wrank, j, i), sb[j * NK + i], "%s: Neighbor_alltoall modified sendbuf", gn);

    /* Neighbor_alltoallv: count s->d is a2count(s, d); both blocks of a twin
     * neighbour have the same size, so the ambiguity above cannot truncate */
    {
        /* send displacements: blocks in reverse order, one-element gaps */
        int off = 0;
        for (int j = nn - 1; j >= 0; j--) {
            sc[j] = nb[j] == MPI_PROC_NULL ? 3 : a2count(wrank, nb[j]);
            sd[j] = off;
            off += sc[j] + 1;
        }
        fill(sb, cap, POISON);
        for (int j = 0; j < nn; j++)
            for (int i = 0; i < sc[j]; i++)
                sb[sd[j] + i] = a2val(wrank, j, i);
        /* receive displacements: even blocks first, then odd ones */
        off = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int l = pass; l < nn; l += 2) {
                rc[l] = nb[l] == MPI_PROC_NULL ? 2 : a2count(nb[l], wrank);
                rd[l] = off;
                off += rc[l] + 1;
            }
        fill(rb, cap, POISON);
        MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, cart);
        fill(ex, cap, POISON);
        for (int l = 0; l < nn; l++) {
            if (nb[l] == MPI_PROC_NULL)
                continue;
            check_a2a_block(g, nb, nn, rb, rd, rc, l, "Neighbor_alltoallv");
            for (int i = 0; i < rc[l]; i++)
                ex[rd[l] + i] = rb[rd[l] + i]; /* checked above */
        }
        for (int k = 0; k < cap; k++)
            CHECK(ex[k], rb[k], "%s: Neighbor_alltoallv wrote outside the blocks at %d", gn, k);
    }

    free(sb);
    free(rb);
    free(ex);
}

/* ---------------------------------------------------------------- driver */

static void run_grid(int nd, const int *periods)
{
    struct grid g;
    g.nd = nd;
    for (int d = 0; d < MAXD; d++) {
        g.dims[d] = 0;
        g.periods[d] = d < nd ? periods[d] : 0;
    }
    MPI_Dims_create(wsize, nd, g.dims);

    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, nd, g.dims, g.periods, 0, &cart);
    CHECK_TRUE(cart != MPI_COMM_NULL, "%s: Cart_create over all ranks", gname_into(&g, &(struct gname_buf){{0}}));
    check_cart_basics(cart, &g);
    check_cart_sub(cart, &g);
    if (nd == 2)
        halo_exchange(cart, &g);
    neighbour_colls(cart, &g);
    MPI_Comm_free(&cart);
}

static void part_partial_cart(void)
{
    struct grid g;
    int n = wsize > 1 ? wsize - 1 : 1;
    g.nd = 1;
    g.dims[0] = n;
    g.periods[0] = 1;
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 1, g.dims, g.periods, 0, &cart);
    if (wrank >= n) {
        CHECK_TRUE(cart == MPI_COMM_NULL, "Cart_create over %d of %d ranks: MPI_COMM_NULL", n, wsize);
        return;
    }
    CHECK_TRUE(cart != MPI_COMM_NULL, "Cart_create over %d of %d ranks", n, wsize);
    int r = -1, s = -1, src, dst;
    MPI_Comm_rank(cart, &r);
    MPI_Comm_size(cart, &s);
    CHECK(wrank, r, "partial cart rank");
    CHECK(n, s, "partial cart size");
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    CHECK((wrank - 1 + n) % n, src, "partial cart shift source");
    CHECK((wrank + 1) % n, dst, "partial cart shift dest");
    int in = -1;
    MPI_Sendrecv(&(int){wrank}, 1, MPI_INT, dst, 9, &in, 1, MPI_INT, src, 9, cart, MPI_STATUS_IGNORE);
    CHECK(src, in, "partial cart ring Sendrecv");
    int got[2 * 1];
    fill(got, 2, POISON);
    MPI_Neighbor_allgather(&(int){wrank}, 1, MPI_INT, got, 1, MPI_INT, cart);
    CHECK(src, got[0], "partial cart Neighbor_allgather from -");
    CHECK(dst, got[1], "partial cart Neighbor_allgather from +");
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    int t = -1;
    MPI_Topo_test(MPI_COMM_WORLD, &t);
    CHECK(MPI_UNDEFINED, t, "Topo_test(MPI_COMM_WORLD)");

    part_dims();

    static const int p1[][1] = {{1}, {0}};
    static const int p2[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    static const int p3[][3] = {{1, 0, 1}, {0, 1, 0}};
    for (size_t k = 0; k < sizeof p1 / sizeof p1[0]; k++)
        run_grid(1, p1[k]);
    for (size_t k = 0; k < sizeof p2 / sizeof p2[0]; k++)
        run_grid(2, p2[k]);
    for (size_t k = 0; k < sizeof p3 / sizeof p3[0]; k++)
        run_grid(3, p3[k]);

    part_partial_cart();

    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
