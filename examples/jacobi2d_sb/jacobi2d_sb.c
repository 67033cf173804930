/*
 * jacobi2d_sb -- 2D 5-point Jacobi relaxation on a 2D block decomposition,
 * a plain MPI program.
 *
 * Usage: jacobi2d_sb [N [ITERATIONS]]   (defaults: N = 256, ITERATIONS = 100)
 *
 * The problem is the one of ../jacobi2d: an N x N grid whose top row is 1.0
 * and whose other three edges are 0.0; the interior starts at 0.0; each
 * iteration replaces every interior point by the average of its four
 * neighbours.  The output has the same format and, since every value is
 * computed by the same expression, the same bits as jacobi2d's.
 *
 * Decomposition: the ranks form a PR x PC process grid (PR the largest
 * divisor of the rank count not above its square root, so the grid is as
 * square as possible), rank = pr * PC + pc.  Rows and columns are split in
 * blocks, leftovers to the lowest blocks (N >= PR and N >= PC).  Each rank
 * stores its block with one ghost row/column on each side.  Neighbours are
 * computed by hand (MPI_PROC_NULL at the grid's edges); the four faces are
 * packed into contiguous buffers (the west and east columns are strided) and
 * exchanged with MPI_Irecv / MPI_Isend.
 *
 * The iterations run in chunks of 10: a superblock of up to 10 iterations
 * (halo exchange + sweep, no collectives), then an MPI_Allreduce of the
 * residual outside it, printed as jacobi2d prints it.
 *
 * jacobi2d_sb_annotated.c is this same program with Tucana's pragmas added
 * (and nothing else changed); a plain compiler ignores them.
 *
 * Reproducibility: the residual is a maximum (MPI_MAX, exact in any order);
 * rank 0 collects the grid with point-to-point receives and sums each row
 * left to right, then the row sums top to bottom.  All output lines but the
 * "ranks" line are bitwise identical for any number of ranks.
 *
 * Self-check: rank 0 repeats the computation serially and compares the
 * collected grid with it bit for bit.
 *
 * Output (rank 0):
 *   iter <k> residual <r>      every 10 iterations
 *   residual <r>               final
 *   checksum <c>               final
 *   ranks <P> (<PR> x <PC>) N <N> iterations <I> time <seconds>
 *   jacobi2d_sb: OK            (or a FAILED line, and exit status 1)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Directions; a message's tag is the direction it travels in. */
enum { NORTH, SOUTH, WEST, EAST, NDIR };
#define TAG_GATHER 10
#define CHUNK 10 /* iterations between two residual reductions */

/* The part of the N x N grid that one rank holds. */
typedef struct {
    int n;      /* global grid size */
    int r0, nr; /* owned global rows [r0, r0 + nr) */
    int c0, nc; /* owned global columns [c0, c0 + nc) */
    int w;      /* row length in memory: nc + 2 (one ghost column each side) */
} Block;

/* Items [*first, *first + *count) of n split in p blocks belong to block k. */
static void block_range(int n, int p, int k, int *first, int *count)
{
    int base = n / p, extra = n % p;
    *count = base + (k < extra ? 1 : 0);
    *first = k * base + (k < extra ? k : extra);
}

static Block make_block(int n, int pr_count, int pc_count, int rank)
{
    Block b;
    b.n = n;
    block_range(n, pr_count, rank / pc_count, &b.r0, &b.nr);
    block_range(n, pc_count, rank % pc_count, &b.c0, &b.nc);
    b.w = b.nc + 2;
    return b;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "jacobi2d_sb: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static int face_count(const Block *b, int d)
{
    return (d == NORTH || d == SOUTH) ? b->nc : b->nr;
}

/* Copy the owned row or column next to face d into buf. */
static void pack_face(const double *u, const Block *b, int d, double *buf)
{
    if (d == NORTH || d == SOUTH) {
        int i = (d == NORTH) ? 1 : b->nr;
        memcpy(buf, &u[(size_t)i * b->w + 1], (size_t)b->nc * sizeof(double));
    } else {
        int j = (d == WEST) ? 1 : b->nc;
        for (int i = 1; i <= b->nr; i++)
            buf[i - 1] = u[(size_t)i * b->w + j];
    }
}

/* Copy buf into the ghost row or column on face d. */
static void unpack_face(double *u, const Block *b, int d, const double *buf)
{
    if (d == NORTH || d == SOUTH) {
        int i = (d == NORTH) ? 0 : b->nr + 1;
        memcpy(&u[(size_t)i * b->w + 1], buf, (size_t)b->nc * sizeof(double));
    } else {
        int j = (d == WEST) ? 0 : b->nc + 1;
        for (int i = 1; i <= b->nr; i++)
            u[(size_t)i * b->w + j] = buf[i - 1];
    }
}

/*
 * One Jacobi sweep over the owned points of u (ghosts current) into unew;
 * returns the largest change.  The serial check calls it on the whole grid.
 */
static double sweep(const double *u, double *unew, const Block *b)
{
    double diff = 0.0;
    for (int li = 1; li <= b->nr; li++) {
        int gi = b->r0 + li - 1;
        const double *above = &u[(size_t)(li - 1) * b->w];
        const double *row = &u[(size_t)li * b->w];
        const double *below = &u[(size_t)(li + 1) * b->w];
        double *out = &unew[(size_t)li * b->w];
        for (int lj = 1; lj <= b->nc; lj++) {
            int gj = b->c0 + lj - 1;
            if (gi == 0 || gi == b->n - 1 || gj == 0 || gj == b->n - 1) {
                out[lj] = row[lj];                  /* fixed boundary point */
                continue;
            }
            out[lj] =
                0.25 * (above[lj] + below[lj] + row[lj - 1] + row[lj + 1]);
            double d = out[lj] - row[lj];
            if (d < 0.0)
                d = -d;
            if (d > diff)
                diff = d;
        }
    }
    return diff;
}

/* A grid block with ghosts: the top global row is 1.0, all else 0.0. */
static double *new_grid(const Block *b)
{
    size_t cells = (size_t)(b->nr + 2) * (size_t)b->w;
    double *u = xmalloc(cells * sizeof(double));
    for (size_t k = 0; k < cells; k++)
        u[k] = 0.0;
    if (b->r0 == 0)
        for (int lj = 1; lj <= b->nc; lj++)
            u[(size_t)1 * b->w + lj] = 1.0;
    return u;
}

int main(int argc, char **argv)
{
    int rank, size, n = 256, iterations = 100;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Process grid PR x PC, as square as possible. */
    int prc = 1;
    for (int k = 1; k * k <= size; k++)
        if (size % k == 0)
            prc = k;
    int pcc = size / prc;

    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        iterations = atoi(argv[2]);
    if (n < 3 || n < pcc || iterations < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [N [ITERATIONS >= 1]], N >= 3 and N >= %d "
                    "(the longer side of the %d x %d process grid)\n",
                    argv[0], pcc, prc, pcc);
        MPI_Finalize();
        return 1;
    }

    Block blk = make_block(n, prc, pcc, rank);
    int pr = rank / pcc, pc = rank % pcc;
    int nbr[NDIR];
    nbr[NORTH] = pr > 0 ? rank - pcc : MPI_PROC_NULL;
    nbr[SOUTH] = pr + 1 < prc ? rank + pcc : MPI_PROC_NULL;
    nbr[WEST] = pc > 0 ? rank - 1 : MPI_PROC_NULL;
    nbr[EAST] = pc + 1 < pcc ? rank + 1 : MPI_PROC_NULL;
    /* A face is received from nbr[d] with the tag of the opposite direction. */
    const int opposite[NDIR] = {SOUTH, NORTH, EAST, WEST};

    double *u = new_grid(&blk);
    double *unew = new_grid(&blk);

    /* State shared by the regions of the loop: declared before it. */
    MPI_Request req[2 * NDIR]; /* [d] receive on face d, [NDIR + d] send */
    double *sendbuf[NDIR], *recvbuf[NDIR];
    for (int d = 0; d < NDIR; d++) {
        sendbuf[d] = xmalloc((size_t)face_count(&blk, d) * sizeof(double));
        recvbuf[d] = xmalloc((size_t)face_count(&blk, d) * sizeof(double));
    }
    double local_diff = 0.0, residual = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int done = 0; done < iterations; done += CHUNK) {
        int steps = iterations - done < CHUNK ? iterations - done : CHUNK;

        for (int it = 0; it < steps; it++) {
            {
                for (int d = 0; d < NDIR; d++)
                    MPI_Irecv(recvbuf[d], face_count(&blk, d), MPI_DOUBLE,
                              nbr[d], opposite[d], MPI_COMM_WORLD, &req[d]);
            }
            {
                for (int d = 0; d < NDIR; d++) {
                    pack_face(u, &blk, d, sendbuf[d]);
                    MPI_Isend(sendbuf[d], face_count(&blk, d), MPI_DOUBLE,
                              nbr[d], d, MPI_COMM_WORLD, &req[NDIR + d]);
                }
            }
            {
                MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
                for (int d = 0; d < NDIR; d++)
                    if (nbr[d] != MPI_PROC_NULL)
                        unpack_face(u, &blk, d, recvbuf[d]);
                local_diff = sweep(u, unew, &blk);
                double *tmp = u;
                u = unew;
                unew = tmp;
            }
        }

        /* Outside the superblock: a collective, as Toucan requires. */
        MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                      MPI_COMM_WORLD);
        if (rank == 0 && (done + steps) % 10 == 0)
            printf("iter %d residual %.17g\n", done + steps, residual);
    }

    double elapsed = MPI_Wtime() - t0;

    /* Each rank's owned block, packed contiguously. */
    double *mine = xmalloc((size_t)blk.nr * (size_t)blk.nc * sizeof(double));
    for (int li = 1; li <= blk.nr; li++)
        memcpy(&mine[(size_t)(li - 1) * blk.nc], &u[(size_t)li * blk.w + 1],
               (size_t)blk.nc * sizeof(double));

    int ok = 1;
    if (rank == 0) {
        /* Collect the grid in rank order; sum it in global row order. */
        double *all = xmalloc((size_t)n * (size_t)n * sizeof(double));
        double *part = xmalloc((size_t)n * (size_t)n * sizeof(double));
        for (int r = 0; r < size; r++) {
            Block o = make_block(n, prc, pcc, r);
            if (r == 0)
                memcpy(part, mine, (size_t)o.nr * o.nc * sizeof(double));
            else
                MPI_Recv(part, o.nr * o.nc, MPI_DOUBLE, r, TAG_GATHER,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < o.nr; i++)
                memcpy(&all[(size_t)(o.r0 + i) * n + o.c0],
                       &part[(size_t)i * o.nc], (size_t)o.nc * sizeof(double));
        }
        double checksum = 0.0;
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int j = 0; j < n; j++)
                s += all[(size_t)i * n + j];
            checksum += s;
        }

        /* Serial reference: the same sweeps on the whole grid. */
        Block whole = make_block(n, 1, 1, 0);
        double *s = new_grid(&whole), *snew = new_grid(&whole);
        double sdiff = 0.0;
        for (int it = 0; it < iterations; it++) {
            sdiff = sweep(s, snew, &whole);
            double *tmp = s;
            s = snew;
            snew = tmp;
        }
        for (int i = 0; i < n && ok; i++)
            if (memcmp(&all[(size_t)i * n], &s[(size_t)(i + 1) * whole.w + 1],
                       (size_t)n * sizeof(double)) != 0)
                ok = 0;
        if (sdiff != residual)
            ok = 0;

        printf("residual %.17g\n", residual);
        printf("checksum %.17g\n", checksum);
        printf("ranks %d (%d x %d) N %d iterations %d time %.6f s\n", size,
               prc, pcc, n, iterations, elapsed);
        if (ok)
            printf("jacobi2d_sb: OK\n");
        else
            printf("jacobi2d_sb: FAILED (the grid differs from the serial "
                   "computation)\n");
        fflush(stdout);
        free(s);
        free(snew);
        free(part);
        free(all);
    } else {
        MPI_Send(mine, blk.nr * blk.nc, MPI_DOUBLE, 0, TAG_GATHER,
                 MPI_COMM_WORLD);
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
