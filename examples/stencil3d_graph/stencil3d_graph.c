/*
 * stencil3d_graph -- a 3D 13-point stencil relaxation on a 3D block
 * decomposition, a plain MPI program; stencil3d_graph_annotated.c annotates
 * it with an explicit MATE dependency graph of directional regions.
 *
 * Usage: stencil3d_graph [N [ITERATIONS]]  (defaults: N = 48, ITERATIONS = 100)
 *
 * The global grid has N x N x N points, x varying fastest in memory.  The
 * stencil reaches two points along each axis, so the boundary is two layers
 * thick and fixed: the two bottom layers (z = 0, 1) are 1.0, the other
 * boundary layers 0.0; the interior starts at 0.0.  Each iteration replaces
 * every interior point u by
 *     (2 * (sum of the 6 neighbours at distance 1)
 *        + (sum of the 6 neighbours at distance 2)) / 18,
 * a weighted average (positive weights summing to 1).
 *
 * Decomposition: as in ../jacobi3d: a PX x PY x PZ process grid (smallest
 * PX + PY + PZ, then largest PX, then largest PY), rank = (kz*PY + ky)*PX + kx,
 * blocks along each axis with leftovers to the lowest blocks; every rank
 * must own at least two points along each axis (N >= 2 * max(PX, PY, PZ)).
 * Each rank stores two ghost layers on each side.  The six faces (two layers
 * each) are packed into contiguous buffers by hand, exchanged with
 * MPI_Irecv / MPI_Isend, and unpacked into the ghost layers.
 *
 * The loop body is written as the slides' directional regions, one statement
 * (or block) each, in the order: six receives, six packs, six sends, six
 * unpacks (each waits for its own receive), and the compute (waits for the
 * six sends, sweeps, swaps the arrays).  As plain MPI this order is an
 * ordinary halo exchange; stencil3d_graph_annotated.c adds a
 * "#pragma mate region(NAME) depends(...)" before each statement and nothing
 * else, and a plain compiler ignores those.
 *
 * Reproducibility: every value is computed by the same expression from the
 * same inputs whatever the decomposition; the residual is a maximum
 * (MPI_MAX, exact in any order); rank 0 collects the grid with point-to-point
 * receives and sums it in global (z, y, x) order.  All output lines but the
 * "ranks" line are bitwise identical for any number of ranks.
 *
 * Self-check: rank 0 repeats the computation serially and compares the
 * collected grid with it bit for bit.
 *
 * Output (rank 0):
 *   residual <max |u_new - u_old| in the last iteration>
 *   checksum <sum of the final grid>
 *   ranks <P> (<PX> x <PY> x <PZ>) N <N> iterations <I> time <seconds>
 *   stencil3d_graph: OK        (or a FAILED line, and exit status 1)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HALO 2 /* ghost layers on each side: the stencil's reach */

/* Directions: axis = d / 2, side = d % 2 (0 low, 1 high); opposite = d ^ 1.
 * A message's tag is the direction it travels in. */
enum { WEST, EAST, SOUTH, NORTH, DOWN, UP, NDIR };
#define TAG_GATHER 10

/* The part of the N^3 grid that one rank holds. */
typedef struct {
    int n;        /* global grid size */
    int first[3]; /* first owned global index along x, y, z */
    int count[3]; /* owned points along x, y, z */
    size_t sy;    /* memory distance between neighbours in y */
    size_t sz;    /* ... and in z (x neighbours are adjacent) */
    size_t cells; /* points stored, ghosts included */
} Block;

/* Items [*first, *first + *count) of n split in p blocks belong to block k. */
static void block_range(int n, int p, int k, int *first, int *count)
{
    int base = n / p, extra = n % p;
    *count = base + (k < extra ? 1 : 0);
    *first = k * base + (k < extra ? k : extra);
}

/* Block of rank r in a p[0] x p[1] x p[2] process grid. */
static Block make_block(int n, const int p[3], int r)
{
    Block b;
    int k[3] = {r % p[0], (r / p[0]) % p[1], r / (p[0] * p[1])};
    b.n = n;
    for (int a = 0; a < 3; a++)
        block_range(n, p[a], k[a], &b.first[a], &b.count[a]);
    b.sy = (size_t)(b.count[0] + 2 * HALO);
    b.sz = b.sy * (size_t)(b.count[1] + 2 * HALO);
    b.cells = b.sz * (size_t)(b.count[2] + 2 * HALO);
    return b;
}

static size_t idx(const Block *b, int x, int y, int z)
{
    return (size_t)z * b->sz + (size_t)y * b->sy + (size_t)x;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "stencil3d_graph: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Values in the face of direction d: HALO layers of the two other axes. */
static int face_count(const Block *b, int d)
{
    int a = d / 2;
    return HALO * b->count[(a + 1) % 3] * b->count[(a + 2) % 3];
}

/*
 * The box [lo, hi) of local indices next to face d: the owned layers that
 * are sent (ghost = 0) or the ghost layers that are received (ghost = 1).
 */
static void face_box(const Block *b, int d, int ghost, int lo[3], int hi[3])
{
    int a = d / 2, high = d % 2;
    for (int k = 0; k < 3; k++) {
        lo[k] = HALO;
        hi[k] = HALO + b->count[k];
    }
    if (!high)
        lo[a] = ghost ? 0 : HALO;
    else
        lo[a] = ghost ? HALO + b->count[a] : b->count[a];
    hi[a] = lo[a] + HALO;
}

static void pack_face(const double *u, const Block *b, int d, double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    face_box(b, d, 0, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                buf[k++] = u[idx(b, x, y, z)];
}

static void unpack_face(double *u, const Block *b, int d, const double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    face_box(b, d, 1, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                u[idx(b, x, y, z)] = buf[k++];
}

/* Is global index g on the fixed boundary? */
static int on_boundary(const Block *b, int g)
{
    return g < HALO || g >= b->n - HALO;
}

/*
 * One Jacobi sweep over the owned points of u (ghosts current) into unew;
 * returns the largest change.  The serial check calls it on the whole grid.
 */
static double sweep(const double *u, double *unew, const Block *b)
{
    double diff = 0.0;
    const size_t sy = b->sy, sz = b->sz;
    for (int z = HALO; z < HALO + b->count[2]; z++) {
        int bz = on_boundary(b, b->first[2] + z - HALO);
        for (int y = HALO; y < HALO + b->count[1]; y++) {
            int byz = bz || on_boundary(b, b->first[1] + y - HALO);
            for (int x = HALO; x < HALO + b->count[0]; x++) {
                size_t c = idx(b, x, y, z);
                if (byz || on_boundary(b, b->first[0] + x - HALO)) {
                    unew[c] = u[c];
                    continue;
                }
                double near = u[c - 1] + u[c + 1] + u[c - sy] + u[c + sy] +
                              u[c - sz] + u[c + sz];
                double far = u[c - 2] + u[c + 2] + u[c - 2 * sy] +
                             u[c + 2 * sy] + u[c - 2 * sz] + u[c + 2 * sz];
                unew[c] = (2.0 * near + far) / 18.0;
                double d = unew[c] - u[c];
                if (d < 0.0)
                    d = -d;
                if (d > diff)
                    diff = d;
            }
        }
    }
    return diff;
}

/* A block with ghosts: 1.0 on the bottom layers (global z < HALO), else 0.0. */
static double *new_grid(const Block *b)
{
    double *u = xmalloc(b->cells * sizeof(double));
    for (size_t k = 0; k < b->cells; k++)
        u[k] = 0.0;
    for (int z = HALO; z < HALO + b->count[2]; z++)
        if (b->first[2] + z - HALO < HALO)
            for (int y = HALO; y < HALO + b->count[1]; y++)
                for (int x = HALO; x < HALO + b->count[0]; x++)
                    u[idx(b, x, y, z)] = 1.0;
    return u;
}

/* Split size ranks into p[0] x p[1] x p[2] (see the header comment). */
static void process_grid(int size, int p[3])
{
    int best = -1;
    for (int px = size; px >= 1; px--) {
        if (size % px)
            continue;
        for (int py = size / px; py >= 1; py--) {
            if ((size / px) % py)
                continue;
            int pz = size / px / py;
            if (best < 0 || px + py + pz < best) {
                best = px + py + pz;
                p[0] = px;
                p[1] = py;
                p[2] = pz;
            }
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, n = 48, iterations = 100;
    int p[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    process_grid(size, p);
    int pmax = p[0] > p[1] ? p[0] : p[1];
    pmax = pmax > p[2] ? pmax : p[2];

    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        iterations = atoi(argv[2]);
    if (n < 2 * HALO + 1 || n / pmax < HALO || iterations < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [N [ITERATIONS >= 1]], N >= %d and N >= %d "
                    "(the %d x %d x %d process grid)\n",
                    argv[0], 2 * HALO + 1, HALO * pmax, p[0], p[1], p[2]);
        MPI_Finalize();
        return 1;
    }

    Block blk = make_block(n, p, rank);
    int k[3] = {rank % p[0], (rank / p[0]) % p[1], rank / (p[0] * p[1])};
    int stride[3] = {1, p[0], p[0] * p[1]};
    int nbr[NDIR];
    for (int a = 0; a < 3; a++) {
        nbr[2 * a] = k[a] > 0 ? rank - stride[a] : MPI_PROC_NULL;
        nbr[2 * a + 1] = k[a] + 1 < p[a] ? rank + stride[a] : MPI_PROC_NULL;
    }

    double *u = new_grid(&blk);
    double *unew = new_grid(&blk);

    /* State shared by the regions of the loop: declared before it. */
    MPI_Request rreq[NDIR], sreq[NDIR]; /* receive / send on face d */
    double *sendbuf[NDIR], *recvbuf[NDIR];
    int fcount[NDIR];
    for (int d = 0; d < NDIR; d++) {
        fcount[d] = face_count(&blk, d);
        sendbuf[d] = xmalloc((size_t)fcount[d] * sizeof(double));
        recvbuf[d] = xmalloc((size_t)fcount[d] * sizeof(double));
    }
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    /*
     * The regions, for each face d (a message's tag is the direction it
     * travels in, so the face from nbr[d] carries the opposite direction):
     * recv_d:   post the receive of face d into its own buffer, which is free
     *           again once unpack_d of the last iteration has run;
     * pack_d:   copy the owned layers next to face d into the send buffer,
     *           once the last compute has swapped the arrays (and so, since
     *           compute waits for the sends, once the last send_d completed);
     * send_d:   send it; the sends of one face stay in iteration order;
     * unpack_d: copy the received face into the ghost layers of the current
     *           array, once it has arrived and the last compute has swapped;
     * compute:  needs every ghost layer, and every send done: then every
     *           pack has read the array before compute makes it the old one,
     *           and the send buffers are free for the next packs.
     */
    for (int it = 0; it < iterations; it++) {
        MPI_Irecv(recvbuf[WEST], fcount[WEST], MPI_DOUBLE, nbr[WEST], EAST,
                  MPI_COMM_WORLD, &rreq[WEST]);
        MPI_Irecv(recvbuf[EAST], fcount[EAST], MPI_DOUBLE, nbr[EAST], WEST,
                  MPI_COMM_WORLD, &rreq[EAST]);
        MPI_Irecv(recvbuf[SOUTH], fcount[SOUTH], MPI_DOUBLE, nbr[SOUTH], NORTH,
                  MPI_COMM_WORLD, &rreq[SOUTH]);
        MPI_Irecv(recvbuf[NORTH], fcount[NORTH], MPI_DOUBLE, nbr[NORTH], SOUTH,
                  MPI_COMM_WORLD, &rreq[NORTH]);
        MPI_Irecv(recvbuf[DOWN], fcount[DOWN], MPI_DOUBLE, nbr[DOWN], UP,
                  MPI_COMM_WORLD, &rreq[DOWN]);
        MPI_Irecv(recvbuf[UP], fcount[UP], MPI_DOUBLE, nbr[UP], DOWN,
                  MPI_COMM_WORLD, &rreq[UP]);

        pack_face(u, &blk, WEST, sendbuf[WEST]);
        pack_face(u, &blk, EAST, sendbuf[EAST]);
        pack_face(u, &blk, SOUTH, sendbuf[SOUTH]);
        pack_face(u, &blk, NORTH, sendbuf[NORTH]);
        pack_face(u, &blk, DOWN, sendbuf[DOWN]);
        pack_face(u, &blk, UP, sendbuf[UP]);

        MPI_Isend(sendbuf[WEST], fcount[WEST], MPI_DOUBLE, nbr[WEST], WEST,
                  MPI_COMM_WORLD, &sreq[WEST]);
        MPI_Isend(sendbuf[EAST], fcount[EAST], MPI_DOUBLE, nbr[EAST], EAST,
                  MPI_COMM_WORLD, &sreq[EAST]);
        MPI_Isend(sendbuf[SOUTH], fcount[SOUTH], MPI_DOUBLE, nbr[SOUTH], SOUTH,
                  MPI_COMM_WORLD, &sreq[SOUTH]);
        MPI_Isend(sendbuf[NORTH], fcount[NORTH], MPI_DOUBLE, nbr[NORTH], NORTH,
                  MPI_COMM_WORLD, &sreq[NORTH]);
        MPI_Isend(sendbuf[DOWN], fcount[DOWN], MPI_DOUBLE, nbr[DOWN], DOWN,
                  MPI_COMM_WORLD, &sreq[DOWN]);
        MPI_Isend(sendbuf[UP], fcount[UP], MPI_DOUBLE, nbr[UP], UP,
                  MPI_COMM_WORLD, &sreq[UP]);

        {
            MPI_Wait(&rreq[WEST], MPI_STATUS_IGNORE);
            if (nbr[WEST] != MPI_PROC_NULL)
                unpack_face(u, &blk, WEST, recvbuf[WEST]);
        }
        {
            MPI_Wait(&rreq[EAST], MPI_STATUS_IGNORE);
            if (nbr[EAST] != MPI_PROC_NULL)
                unpack_face(u, &blk, EAST, recvbuf[EAST]);
        }
        {
            MPI_Wait(&rreq[SOUTH], MPI_STATUS_IGNORE);
            if (nbr[SOUTH] != MPI_PROC_NULL)
                unpack_face(u, &blk, SOUTH, recvbuf[SOUTH]);
        }
        {
            MPI_Wait(&rreq[NORTH], MPI_STATUS_IGNORE);
            if (nbr[NORTH] != MPI_PROC_NULL)
                unpack_face(u, &blk, NORTH, recvbuf[NORTH]);
        }
        {
            MPI_Wait(&rreq[DOWN], MPI_STATUS_IGNORE);
            if (nbr[DOWN] != MPI_PROC_NULL)
                unpack_face(u, &blk, DOWN, recvbuf[DOWN]);
        }
        {
            MPI_Wait(&rreq[UP], MPI_STATUS_IGNORE);
            if (nbr[UP] != MPI_PROC_NULL)
                unpack_face(u, &blk, UP, recvbuf[UP]);
        }

        {
            MPI_Waitall(NDIR, sreq, MPI_STATUSES_IGNORE);
            local_diff = sweep(u, unew, &blk);
            double *tmp = u;
            u = unew;
            unew = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0;
    double residual = 0.0;
    MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Each rank's owned block, packed contiguously in (z, y, x) order. */
    size_t owned = (size_t)blk.count[0] * blk.count[1] * blk.count[2];
    double *mine = xmalloc(owned * sizeof(double));
    {
        size_t m = 0;
        for (int z = HALO; z < HALO + blk.count[2]; z++)
            for (int y = HALO; y < HALO + blk.count[1]; y++)
                for (int x = HALO; x < HALO + blk.count[0]; x++)
                    mine[m++] = u[idx(&blk, x, y, z)];
    }

    int ok = 1;
    if (rank == 0) {
        /* Collect the grid in rank order; sum it in global order. */
        size_t total = (size_t)n * n * n;
        double *all = xmalloc(total * sizeof(double));
        double *part = xmalloc(total * sizeof(double));
        for (int r = 0; r < size; r++) {
            Block o = make_block(n, p, r);
            int cnt = o.count[0] * o.count[1] * o.count[2];
            if (r == 0)
                memcpy(part, mine, (size_t)cnt * sizeof(double));
            else
                MPI_Recv(part, cnt, MPI_DOUBLE, r, TAG_GATHER, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            size_t m = 0;
            for (int z = 0; z < o.count[2]; z++)
                for (int y = 0; y < o.count[1]; y++) {
                    size_t row =
                        ((size_t)(o.first[2] + z) * n + o.first[1] + y) * n +
                        o.first[0];
                    for (int x = 0; x < o.count[0]; x++)
                        all[row + x] = part[m++];
                }
        }
        double checksum = 0.0;
        for (size_t m = 0; m < total; m++)
            checksum += all[m];

        /* Serial reference: the same sweeps on the whole grid. */
        const int one[3] = {1, 1, 1};
        Block whole = make_block(n, one, 0);
        double *s = new_grid(&whole), *snew = new_grid(&whole);
        double sdiff = 0.0;
        for (int it = 0; it < iterations; it++) {
            sdiff = sweep(s, snew, &whole);
            double *tmp = s;
            s = snew;
            snew = tmp;
        }
        for (int z = 0; z < n && ok; z++)
            for (int y = 0; y < n && ok; y++)
                if (memcmp(&all[((size_t)z * n + y) * n],
                           &s[idx(&whole, HALO, y + HALO, z + HALO)],
                           (size_t)n * sizeof(double)) != 0)
                    ok = 0;
        if (sdiff != residual)
            ok = 0;

        printf("residual %.17g\n", residual);
        printf("checksum %.17g\n", checksum);
        printf("ranks %d (%d x %d x %d) N %d iterations %d time %.6f s\n",
               size, p[0], p[1], p[2], n, iterations, elapsed);
        if (ok)
            printf("stencil3d_graph: OK\n");
        else
            printf("stencil3d_graph: FAILED (the grid differs from the serial "
                   "computation)\n");
        fflush(stdout);
        free(s);
        free(snew);
        free(part);
        free(all);
    } else {
        MPI_Send(mine, (int)owned, MPI_DOUBLE, 0, TAG_GATHER, MPI_COMM_WORLD);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    for (int d = 0; d < NDIR; d++) {
        free(sendbuf[d]);
        free(recvbuf[d]);
    }
    free(mine);
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
