/*
 * graph_topology -- graph and distributed-graph topologies and the
 * neighbourhood collectives on them (MPI-3.1 sections 7.5-7.6).
 *
 *  1. MPI_Graph_create of a ring (every rank, neighbours rank-1 then
 *     rank+1: with 1 or 2 ranks one rank is listed twice) and of a star
 *     (rank 0 joined to all others): MPI_Topo_test (MPI_GRAPH, also on an
 *     MPI_Comm_dup), MPI_Graphdims_get, MPI_Graph_get, and
 *     MPI_Graph_neighbors_count / MPI_Graph_neighbors of every rank.  A ring
 *     over all ranks but the last: the last gets MPI_COMM_NULL.
 *     MPI_Graph_map and MPI_Cart_map: the identity, MPI_UNDEFINED beyond
 *     the nodes or cells.
 *  2. Distributed graphs over one edge list: ranks 1..n-1 (rank 0 too with
 *     one rank) each have two edges to the next, one to the one after, and
 *     the first a self loop; with more than one rank, rank 0 has no
 *     neighbours.  Built three ways: MPI_Dist_graph_create_adjacent with
 *     weights, sources given in reverse order (the order must be kept;
 *     rank 0 passes MPI_WEIGHTS_EMPTY); MPI_Dist_graph_create with every
 *     edge named by rank (s + d + 1) mod size, not its ends, MPI_UNWEIGHTED
 *     (weighted flag 0) and weighted (each source's weight found with it).
 *     MPI_Topo_test gives MPI_DIST_GRAPH; neighbour counts and sets match.
 *  3. On the ring, the star and the three distributed graphs: every
 *     neighbourhood collective, blocking and non-blocking:
 *     MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v) and
 *     MPI_Neighbor_alltoallw (three datatypes, one of them non-contiguous,
 *     chosen per edge; byte displacements), with counts 0, 1 or 2 per edge,
 *     gaps and holes that must stay untouched.  Where a rank is listed
 *     several times, its k-th message to a neighbour meets that
 *     neighbour's k-th receive from it (MPI's message order), so the
 *     expected block of each slot is known from the slot's own lists
 *     (checked under Tucana only: see occurrence()).
 *     MPI_Neighbor_alltoallw also on a 1-D non-periodic Cartesian grid
 *     (MPI_PROC_NULL slots untouched).
 *
 * Works for any world size >= 1.  Prints "OK graph_topology" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "graph_topology"
#include "mpitest.h"

#define POISON (-777)
#define MAXE 64 /* edges in the distributed graphs: 3 per rank + 1, size <= 16 */

/* ------------------------------------------------------------ the graphs */

/* Ring: neighbours of r are r-1 then r+1 (mod n). */
static void ring_graph(int n, int *index, int *edges)
{
    for (int r = 0; r < n; r++) {
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r - 1 + n) % n;
        edges[2 * r + 1] = (r + 1) % n;
    }
}

/* Star: 0 joined to 1..n-1 in order; the others to 0. */
static void star_graph(int n, int *index, int *edges)
{
    int k = 0;
    for (int r = 1; r < n; r++)
        edges[k++] = r;
    index[0] = k;
    for (int r = 1; r < n; r++) {
        edges[k++] = 0;
        index[r] = k;
    }
}

/* The distributed graph's edges in a fixed global order. */
static int dist_edges(int size, int *src, int *dst)
{
    int first = size > 1 ? 1 : 0, m = size - first, k = 0;
    for (int i = 0; i < m; i++) {
        int a = first + i, b = first + (i + 1) % m, c = first + (i + 2) % m;
        src[k] = a, dst[k++] = b;
        src[k] = a, dst[k++] = b; /* listed twice */
        src[k] = a, dst[k++] = c;
        if (i == 0)
            src[k] = a, dst[k++] = a; /* self loop */
    }
    return k;
}

static int weight_of(int s, int d) { return 1000 + 37 * s + d; }

/* ------------------------------------------------ what each block holds */

static int code1(int s) { return 100 * s + 7; }
static int code(int s, int d, int k) { return 10000 * s + 100 * d + 10 * k; }
static int count_of(int s, int d, int k) { return (s + 2 * d + k) % 3; }
static int type_of(int s, int d, int k) { return (s + d + k) % 3; }

/* Which of the edges to (or from) v slot j of a is: how many times v
 * occurs in a[0..j).  The k-th message to a neighbour meets its k-th
 * receive from us, as MPI's definition (Isends in destination order,
 * Irecvs in source order, one tag) says.  MPICH before 2026 (pmodels/mpich
 * pull request 7945) posts the receives in reverse, so elsewhere than
 * under Tucana the edges between one pair are told apart only by
 * neighbour: k is always 0. */
static int occurrence(const int *a, int j, int v)
{
#if defined(TUCANA)
    int k = 0;
    for (int i = 0; i < j; i++)
        k += a[i] == v;
    return k;
#else
    (void)a, (void)j, (void)v;
    return 0;
#endif
}

/* --------------------------------------------------- the neighbourhoods */

struct nbhd {
    int in, out;
    int src[MAXE], dst[MAXE];
};

static void neighbourhood(MPI_Comm comm, struct nbhd *h)
{
    int status;
    MPI_Topo_test(comm, &status);
    if (status == MPI_GRAPH) {
        int r;
        MPI_Comm_rank(comm, &r);
        MPI_Graph_neighbors_count(comm, r, &h->in);
        MPI_Graph_neighbors(comm, r, h->in, h->src);
        h->out = h->in;
        memcpy(h->dst, h->src, sizeof h->src);
    } else if (status == MPI_DIST_GRAPH) {
        int weighted, sw[MAXE], dw[MAXE];
        MPI_Dist_graph_neighbors_count(comm, &h->in, &h->out, &weighted);
        MPI_Dist_graph_neighbors(comm, h->in, h->src, sw, h->out, h->dst, dw);
    } else {
        CHECK(MPI_CART, status, "topology");
        h->in = h->out = 2;
        MPI_Cart_shift(comm, 0, 1, &h->src[0], &h->src[1]);
        h->dst[0] = h->src[0];
        h->dst[1] = h->src[1];
    }
}

/* -------------------------------------------------------------- part 3 */

static void wait_if(int nonblocking, MPI_Request *req)
{
    if (nonblocking)
        MPI_Wait(req, MPI_STATUS_IGNORE);
}

static void check_allgather(MPI_Comm comm, const struct nbhd *h, int me, int nb, const char *what)
{
    MPI_Request req;
    int sbuf[2] = {code1(me), code1(me) + 1};
    int *rbuf = xmalloc(sizeof(int) * (size_t)(2 * h->in + 1));
    for (int i = 0; i < 2 * h->in + 1; i++)
        rbuf[i] = POISON;
    if (nb)
        MPI_Ineighbor_allgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, comm, &req);
    else
        MPI_Neighbor_allgather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, comm);
    wait_if(nb, &req);
    for (int j = 0; j < h->in; j++) {
        int s = h->src[j];
        CHECK(s == MPI_PROC_NULL ? POISON : code1(s), rbuf[2 * j], "%s allgather nb=%d slot %d", what, nb, j);
        CHECK(s == MPI_PROC_NULL ? POISON : code1(s) + 1, rbuf[2 * j + 1], "%s allgather slot %d", what, j);
    }
    CHECK(POISON, rbuf[2 * h->in], "%s allgather: past the end", what);
    CHECK(code1(me), sbuf[0], "%s allgather: send buffer", what);

    /* allgatherv: s sends s % 3 ints; slots one apart, in reverse order */
    int scount = me % 3, total = 0;
    int *rcounts = xmalloc(sizeof(int) * (size_t)(h->in + 1));
    int *displs = xmalloc(sizeof(int) * (size_t)(h->in + 1));
    for (int j = h->in - 1; j >= 0; j--) {
        int s = h->src[j];
        rcounts[j] = s == MPI_PROC_NULL ? 0 : s % 3;
        displs[j] = total;
        total += rcounts[j] + 1;
    }
    int *vbuf = xmalloc(sizeof(int) * (size_t)(total + 1));
    for (int i = 0; i <= total; i++)
        vbuf[i] = POISON;
    int vs[2] = {code1(me), code1(me) + 1};
    if (nb)
        MPI_Ineighbor_allgatherv(vs, scount, MPI_INT, vbuf, rcounts, displs, MPI_INT, comm, &req);
    else
        MPI_Neighbor_allgatherv(vs, scount, MPI_INT, vbuf, rcounts, displs, MPI_INT, comm);
    wait_if(nb, &req);
    for (int j = 0; j < h->in; j++) {
        int s = h->src[j];
        for (int t = 0; t < rcounts[j]; t++)
            CHECK(code1(s) + t, vbuf[displs[j] + t], "%s allgatherv nb=%d slot %d element %d", what, nb, j, t);
        CHECK(POISON, vbuf[displs[j] + rcounts[j]], "%s allgatherv gap after slot %d", what, j);
    }
    free(vbuf);
    free(displs);
    free(rcounts);
    free(rbuf);
}

static void check_alltoall(MPI_Comm comm, const struct nbhd *h, int me, int nb, const char *what)
{
    MPI_Request req;
    int *sbuf = xmalloc(sizeof(int) * (size_t)(h->out + 1));
    int *rbuf = xmalloc(sizeof(int) * (size_t)(h->in + 1));
    for (int j = 0; j < h->out; j++)
        sbuf[j] = code(me, h->dst[j], occurrence(h->dst, j, h->dst[j]));
    for (int j = 0; j <= h->in; j++)
        rbuf[j] = POISON;
    if (nb)
        MPI_Ineighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, &req);
    else
        MPI_Neighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm);
    wait_if(nb, &req);
    for (int j = 0; j < h->in; j++) {
        int s = h->src[j];
        CHECK(s == MPI_PROC_NULL ? POISON : code(s, me, occurrence(h->src, j, s)), rbuf[j],
              "%s alltoall nb=%d slot %d from %d", what, nb, j, s);
    }
    CHECK(POISON, rbuf[h->in], "%s alltoall: past the end", what);

    /* zero counts everywhere */
    if (nb)
        MPI_Ineighbor_alltoall(sbuf, 0, MPI_INT, rbuf, 0, MPI_INT, comm, &req);
    else
        MPI_Neighbor_alltoall(sbuf, 0, MPI_INT, rbuf, 0, MPI_INT, comm);
    wait_if(nb, &req);
    CHECK(POISON, rbuf[h->in], "%s alltoall with zero counts", what);

    /* alltoallv: 0, 1 or 2 ints per edge, blocks in reverse order, gaps */
    int *sc = xmalloc(sizeof(int) * (size_t)(h->out + 1)), *sd = xmalloc(sizeof(int) * (size_t)(h->out + 1));
    int *rc = xmalloc(sizeof(int) * (size_t)(h->in + 1)), *rd = xmalloc(sizeof(int) * (size_t)(h->in + 1));
    int stotal = 0, rtotal = 0;
    for (int j = h->out - 1; j >= 0; j--) {
        sc[j] = count_of(me, h->dst[j], occurrence(h->dst, j, h->dst[j]));
        sd[j] = stotal;
        stotal += sc[j] + 1;
    }
    for (int j = h->in - 1; j >= 0; j--) {
        int s = h->src[j];
        rc[j] = s == MPI_PROC_NULL ? 0 : count_of(s, me, occurrence(h->src, j, s));
        rd[j] = rtotal;
        rtotal += rc[j] + 1;
    }
    int *vs = xmalloc(sizeof(int) * (size_t)(stotal + 1)), *vr = xmalloc(sizeof(int) * (size_t)(rtotal + 1));
    for (int i = 0; i <= stotal; i++)
        vs[i] = POISON;
    for (int i = 0; i <= rtotal; i++)
        vr[i] = POISON;
    for (int j = 0; j < h->out; j++)
        for (int t = 0; t < sc[j]; t++)
            vs[sd[j] + t] = code(me, h->dst[j], occurrence(h->dst, j, h->dst[j])) + t;
    if (nb)
        MPI_Ineighbor_alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, comm, &req);
    else
        MPI_Neighbor_alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, comm);
    wait_if(nb, &req);
    for (int j = 0; j < h->in; j++) {
        int s = h->src[j];
        for (int t = 0; t < rc[j]; t++)
            CHECK(code(s, me, occurrence(h->src, j, s)) + t, vr[rd[j] + t], "%s alltoallv nb=%d slot %d element %d",
                  what, nb, j, t);
        CHECK(POISON, vr[rd[j] + rc[j]], "%s alltoallv gap after slot %d", what, j);
    }
    free(vs);
    free(vr);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sbuf);
    free(rbuf);
}

/* alltoallw: the type of an edge's block is MPI_INT, MPI_DOUBLE or a
 * vector of single ints two apart (a hole between them), by type_of(). */
static MPI_Datatype edge_type(const MPI_Datatype *types, int s, int d, int k) { return types[type_of(s, d, k)]; }

static void put_block(char *at, int kind, int count, int value)
{
    for (int t = 0; t < count; t++) {
        if (kind == 0) {
            int v = value + t;
            memcpy(at + t * sizeof(int), &v, sizeof v);
        } else if (kind == 1) {
            double v = value + t + 0.5;
            memcpy(at + t * sizeof(double), &v, sizeof v);
        } else {
            int v[2] = {value + 2 * t, value + 2 * t + 1};
            memcpy(at + t * 3 * sizeof(int), &v[0], sizeof(int));
            memcpy(at + (t * 3 + 2) * sizeof(int), &v[1], sizeof(int));
        }
    }
}

static void check_block(const char *at, int kind, int count, int value, const char *what, int j)
{
    for (int t = 0; t < count; t++) {
        if (kind == 0) {
            int v;
            memcpy(&v, at + t * sizeof(int), sizeof v);
            CHECK(value + t, v, "%s alltoallw slot %d int %d", what, j, t);
        } else if (kind == 1) {
            double v;
            memcpy(&v, at + t * sizeof(double), sizeof v);
            CHECK(1, v == value + t + 0.5, "%s alltoallw slot %d double %d", what, j, t);
        } else {
            int v[3];
            memcpy(v, at + t * 3 * sizeof(int), sizeof v);
            CHECK(value + 2 * t, v[0], "%s alltoallw slot %d vector %d", what, j, t);
            CHECK(POISON, v[1], "%s alltoallw slot %d hole %d", what, j, t);
            CHECK(value + 2 * t + 1, v[2], "%s alltoallw slot %d vector %d", what, j, t);
        }
    }
}

static void check_alltoallw(MPI_Comm comm, const struct nbhd *h, int me, int nb, const char *what)
{
    static const size_t extent[3] = {sizeof(int), sizeof(double), 3 * sizeof(int)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_DATATYPE_NULL};
    MPI_Type_vector(2, 1, 2, MPI_INT, &types[2]);
    MPI_Type_commit(&types[2]);
    MPI_Request req;
    int n_out = h->out + 1, n_in = h->in + 1;
    int *sc = xmalloc(sizeof(int) * (size_t)n_out), *rc = xmalloc(sizeof(int) * (size_t)n_in);
    MPI_Aint *sd = xmalloc(sizeof(MPI_Aint) * (size_t)n_out), *rd = xmalloc(sizeof(MPI_Aint) * (size_t)n_in);
    MPI_Datatype *st = xmalloc(sizeof(MPI_Datatype) * (size_t)n_out), *rt = xmalloc(sizeof(MPI_Datatype) * (size_t)n_in);
    int *sk = xmalloc(sizeof(int) * (size_t)n_out), *rk = xmalloc(sizeof(int) * (size_t)n_in);
    size_t stotal = 0, rtotal = 0;
    /* blocks in reverse order, 8 bytes apart */
    for (int j = h->out - 1; j >= 0; j--) {
        int d = h->dst[j], k = occurrence(h->dst, j, d);
        sc[j] = d == MPI_PROC_NULL ? 1 : count_of(me, d, k);
        sk[j] = d == MPI_PROC_NULL ? 0 : type_of(me, d, k);
        st[j] = types[sk[j]];
        sd[j] = (MPI_Aint)stotal;
        stotal += (size_t)sc[j] * extent[sk[j]] + 8;
    }
    for (int j = h->in - 1; j >= 0; j--) {
        int s = h->src[j], k = occurrence(h->src, j, s);
        rc[j] = s == MPI_PROC_NULL ? 2 : count_of(s, me, k);
        rk[j] = s == MPI_PROC_NULL ? 1 : type_of(s, me, k);
        rt[j] = s == MPI_PROC_NULL ? MPI_DOUBLE : edge_type(types, s, me, k);
        rd[j] = (MPI_Aint)rtotal;
        rtotal += (size_t)rc[j] * extent[rk[j]] + 8;
    }
    /* int-sized POISON everywhere, 8-byte aligned blocks */
    size_t sn = stotal / sizeof(int) + 1, rn = rtotal / sizeof(int) + 1;
    int *sbuf = xmalloc(sn * sizeof(int)), *rbuf = xmalloc(rn * sizeof(int));
    for (size_t i = 0; i < sn; i++)
        sbuf[i] = POISON;
    for (size_t i = 0; i < rn; i++)
        rbuf[i] = POISON;
    for (int j = 0; j < h->out; j++) {
        int d = h->dst[j];
        if (d != MPI_PROC_NULL)
            put_block((char *)sbuf + sd[j], sk[j], sc[j], code(me, d, occurrence(h->dst, j, d)));
    }
    if (nb)
        MPI_Ineighbor_alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm, &req);
    else
        MPI_Neighbor_alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm);
    wait_if(nb, &req);
    for (int j = 0; j < h->in; j++) {
        int s = h->src[j];
        const char *at = (const char *)rbuf + rd[j];
        if (s == MPI_PROC_NULL) {
            for (size_t b = 0; b < (size_t)rc[j] * extent[rk[j]] / sizeof(int); b++)
                CHECK(POISON, ((const int *)at)[b], "%s alltoallw: MPI_PROC_NULL slot %d touched", what, j);
            continue;
        }
        check_block(at, rk[j], rc[j], code(s, me, occurrence(h->src, j, s)), what, j);
        const int *gap = (const int *)(at + (size_t)rc[j] * extent[rk[j]]);
        CHECK(POISON, gap[0], "%s alltoallw gap after slot %d", what, j);
        CHECK(POISON, gap[1], "%s alltoallw gap after slot %d", what, j);
    }
    MPI_Type_free(&types[2]);
    free(sbuf);
    free(rbuf);
    free(sc);
    free(rc);
    free(sd);
    free(rd);
    free(st);
    free(rt);
    free(sk);
    free(rk);
}

static void check_collectives(MPI_Comm comm, const char *what)
{
    struct nbhd h;
    int me;
    MPI_Comm_rank(comm, &me);
    neighbourhood(comm, &h);
    for (int nb = 0; nb < 2; nb++) {
        check_allgather(comm, &h, me, nb, what);
        check_alltoall(comm, &h, me, nb, what);
        check_alltoallw(comm, &h, me, nb, what);
    }
    /* several non-blocking ones in flight at once */
    int s = code1(me), *r = xmalloc(sizeof(int) * (size_t)(h.in + 1));
    MPI_Request reqs[2];
    MPI_Ineighbor_allgather(&s, 1, MPI_INT, r, 1, MPI_INT, comm, &reqs[0]);
    MPI_Ibarrier(comm, &reqs[1]);
    MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    for (int j = 0; j < h.in; j++)
        if (h.src[j] != MPI_PROC_NULL)
            CHECK(code1(h.src[j]), r[j], "%s Ineighbor_allgather next to Ibarrier slot %d", what, j);
    free(r);
}

/* -------------------------------------------------------------- part 1 */

static void check_graph(MPI_Comm g, int n, const int *index, const int *edges, const char *what)
{
    int status, nnodes, nedges, me;
    MPI_Topo_test(g, &status);
    CHECK(MPI_GRAPH, status, "%s: MPI_Topo_test", what);
    MPI_Comm_rank(g, &me);
    CHECK(wrank, me, "%s: rank order kept", what);
    MPI_Graphdims_get(g, &nnodes, &nedges);
    CHECK(n, nnodes, "%s: nnodes", what);
    CHECK(index[n - 1], nedges, "%s: nedges", what);
    int *gi = xmalloc(sizeof(int) * (size_t)n), *ge = xmalloc(sizeof(int) * (size_t)(nedges + 1));
    MPI_Graph_get(g, n, nedges, gi, ge);
    for (int i = 0; i < n; i++)
        CHECK(index[i], gi[i], "%s: index[%d]", what, i);
    for (int e = 0; e < nedges; e++)
        CHECK(edges[e], ge[e], "%s: edges[%d]", what, e);
    for (int r = 0; r < n; r++) {
        int count, first = r ? index[r - 1] : 0;
        MPI_Graph_neighbors_count(g, r, &count);
        CHECK(index[r] - first, count, "%s: neighbours of %d", what, r);
        MPI_Graph_neighbors(g, r, count, ge);
        for (int k = 0; k < count; k++)
            CHECK(edges[first + k], ge[k], "%s: neighbour %d of %d", what, k, r);
    }
    MPI_Comm dup;
    MPI_Comm_dup(g, &dup);
    MPI_Topo_test(dup, &status);
    CHECK(MPI_GRAPH, status, "%s: MPI_Topo_test of a dup", what);
    MPI_Graphdims_get(dup, &nnodes, &nedges);
    CHECK(n, nnodes, "%s: nnodes of a dup", what);
    MPI_Comm_free(&dup);
    free(gi);
    free(ge);
}

static void part_graph(void)
{
    int n = wsize;
    int *index = xmalloc(sizeof(int) * (size_t)n), *edges = xmalloc(sizeof(int) * (size_t)(2 * n));
    MPI_Comm g;
    int newrank;

    ring_graph(n, index, edges);
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
    check_graph(g, n, index, edges, "ring");
    check_collectives(g, "ring");
    MPI_Comm_free(&g);
    MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank);
    CHECK(wrank, newrank, "MPI_Graph_map");

    star_graph(n, index, edges);
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, &g);
    check_graph(g, n, index, edges, "star");
    check_collectives(g, "star");
    MPI_Comm_free(&g);

    if (n > 1) { /* a ring over all but the last rank */
        ring_graph(n - 1, index, edges);
        MPI_Graph_create(MPI_COMM_WORLD, n - 1, index, edges, 0, &g);
        if (wrank == n - 1) {
            CHECK(1, g == MPI_COMM_NULL, "graph over n-1 ranks: MPI_COMM_NULL at the last");
        } else {
            check_graph(g, n - 1, index, edges, "ring of n-1");
            check_collectives(g, "ring of n-1");
            MPI_Comm_free(&g);
        }
        MPI_Graph_map(MPI_COMM_WORLD, n - 1, index, edges, &newrank);
        CHECK(wrank == n - 1 ? MPI_UNDEFINED : wrank, newrank, "MPI_Graph_map over n-1 nodes");
        int dims[1] = {n - 1}, periods[1] = {0};
        MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &newrank);
        CHECK(wrank == n - 1 ? MPI_UNDEFINED : wrank, newrank, "MPI_Cart_map over n-1 cells");
    }
    int dims[2] = {1, n}, periods[2] = {1, 0};
    MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank);
    CHECK(wrank, newrank, "MPI_Cart_map");

    /* MPI_Neighbor_alltoallw on a Cartesian grid too */
    int cdims[1] = {n}, cper[1] = {0};
    MPI_Comm c;
    MPI_Cart_create(MPI_COMM_WORLD, 1, cdims, cper, 0, &c);
    struct nbhd h;
    neighbourhood(c, &h);
    check_alltoallw(c, &h, wrank, 0, "cart");
    check_alltoallw(c, &h, wrank, 1, "cart");
    MPI_Comm_free(&c);
    free(index);
    free(edges);
}

/* -------------------------------------------------------------- part 2 */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The sources and destinations of `me` in the edge list, in its order. */
static void expected_lists(int me, int ne, const int *es, const int *ed, struct nbhd *h)
{
    h->in = h->out = 0;
    for (int e = 0; e < ne; e++) {
        if (ed[e] == me)
            h->src[h->in++] = es[e];
        if (es[e] == me)
            h->dst[h->out++] = ed[e];
    }
}

static void check_dist(MPI_Comm d, const struct nbhd *want, int weighted_want, int ordered, const char *what)
{
    int status, in, out, weighted;
    MPI_Topo_test(d, &status);
    CHECK(MPI_DIST_GRAPH, status, "%s: MPI_Topo_test", what);
    MPI_Dist_graph_neighbors_count(d, &in, &out, &weighted);
    CHECK(want->in, in, "%s: indegree", what);
    CHECK(want->out, out, "%s: outdegree", what);
    CHECK(weighted_want, weighted != 0, "%s: weighted", what);
    int src[MAXE], dst[MAXE], sw[MAXE], dw[MAXE];
    /* exact sizes: MPICH 4.0 copies max* entries */
    MPI_Dist_graph_neighbors(d, in, src, weighted ? sw : MPI_UNWEIGHTED, out, dst, weighted ? dw : MPI_UNWEIGHTED);
    if (weighted) {
        for (int j = 0; j < in; j++)
            CHECK(weight_of(src[j], wrank), sw[j], "%s: weight of source %d", what, j);
        for (int j = 0; j < out; j++)
            CHECK(weight_of(wrank, dst[j]), dw[j], "%s: weight of destination %d", what, j);
    }
    if (!ordered) { /* the general form: compare the sets */
        int a[MAXE], b[MAXE];
        memcpy(a, want->src, sizeof a);
        qsort(a, (size_t)in, sizeof(int), cmp_int);
        qsort(src, (size_t)in, sizeof(int), cmp_int);
        memcpy(b, want->dst, sizeof b);
        qsort(b, (size_t)out, sizeof(int), cmp_int);
        qsort(dst, (size_t)out, sizeof(int), cmp_int);
        for (int j = 0; j < in; j++)
            CHECK(a[j], src[j], "%s: sources (sorted) %d", what, j);
        for (int j = 0; j < out; j++)
            CHECK(b[j], dst[j], "%s: destinations (sorted) %d", what, j);
        return;
    }
    for (int j = 0; j < in; j++)
        CHECK(want->src[j], src[j], "%s: source %d", what, j);
    for (int j = 0; j < out; j++)
        CHECK(want->dst[j], dst[j], "%s: destination %d", what, j);
}

static void part_dist(void)
{
    int n = wsize, me = wrank;
    int es[MAXE], ed[MAXE];
    int ne = dist_edges(n, es, ed);
    CHECK_TRUE(ne <= MAXE, "edge count");
    struct nbhd h;
    expected_lists(me, ne, es, ed, &h);
    MPI_Comm d;

    /* adjacent, weighted, sources in reverse order */
    struct nbhd given = h;
    int sw[MAXE], dw[MAXE];
    for (int j = 0; j < h.in; j++) {
        given.src[j] = h.src[h.in - 1 - j];
        sw[j] = weight_of(given.src[j], me);
    }
    for (int j = 0; j < h.out; j++)
        dw[j] = weight_of(me, h.dst[j]);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, h.in, given.src, h.in ? sw : MPI_WEIGHTS_EMPTY, h.out, h.dst,
                                   h.out ? dw : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &d);
    check_dist(d, &given, 1, 1, "adjacent");
    check_collectives(d, "adjacent");
    MPI_Comm dup;
    MPI_Comm_dup(d, &dup);
    check_dist(dup, &given, 1, 1, "adjacent dup");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&d);

    /* general: edge (s, d) named by rank (s + d + 1) % n, runs of one source
     * in one entry, and an entry of degree 0 first */
    int nodes[MAXE + 1], degrees[MAXE + 1], targets[MAXE], weights[MAXE], k = 0, m = 0;
    nodes[m] = me, degrees[m++] = 0;
    for (int e = 0; e < ne; e++) {
        if ((es[e] + ed[e] + 1) % n != me)
            continue;
        if (degrees[m - 1] == 0 || nodes[m - 1] != es[e])
            nodes[m] = es[e], degrees[m++] = 0;
        targets[k] = ed[e];
        weights[k++] = weight_of(es[e], ed[e]);
        degrees[m - 1]++;
    }
    for (int weighted = 0; weighted < 2; weighted++) {
        const char *what = weighted ? "general weighted" : "general";
        MPI_Dist_graph_create(MPI_COMM_WORLD, m, nodes, degrees, targets,
                              weighted ? (k ? weights : MPI_WEIGHTS_EMPTY) : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d);
        check_dist(d, &h, weighted, 0, what);
        check_collectives(d, what);
        MPI_Comm_free(&d);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (wsize > 16) {
        if (wrank == 0)
            printf("OK graph_topology (skipped: more than 16 ranks)\n");
        MPI_Finalize();
        return 0;
    }
    part_graph();
    part_dist();
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("OK graph_topology\n");
    MPI_Finalize();
    return 0;
}
