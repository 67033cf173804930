/*
 * jacobi3d -- benchmark program: 3D 7-point Jacobi relaxation on a 1D, 2D or
 * 3D block decomposition.  This file is the *Toucan* variant of the ablation
 * that follows the 2017 MATE slides' roadmap (issue 15): the Toucan 3-pragma
 * form (#pragma tucana superblock with one receive, one send and one compute
 * region) whose receive and send regions pass the faces to MPI_Irecv /
 * MPI_Isend as MPI derived datatypes, as the slides' first code: no send or
 * receive buffers, no packing by hand.  Packing the strided faces is left to
 * MPI (under Tucana, to the runtime: see tucana-run --pack).
 *
 * Usage: jacobi3d [NX NY NZ [ITERATIONS [DIMS]]]
 *        (defaults: 64 64 64, 50 iterations, DIMS = 3)
 *
 * The global grid has NX x NY x NZ points, x varying fastest in memory.  The
 * boundary is fixed: the bottom face (z = 0) is 1.0, the other five faces
 * are 0.0; the interior starts at 0.0.  Each iteration replaces every
 * interior point by the average of its six neighbours.
 *
 * Decomposition: PX x PY x PZ ranks, rank = (kz * PY + ky) * PX + kx, each
 * axis split in blocks (leftovers to the lowest blocks).  DIMS limits how
 * many axes are split: 1 splits z only, 2 splits y and z, 3 any axis.  Among
 * the allowed factorizations of the rank count the one with the smallest
 * halo per rank is taken (ties: the smallest PX + PY + PZ, then the first
 * found with the largest PZ, then PY).  Every rank owns at least one point
 * along each axis.  The faces are MPI derived datatypes: for each direction
 * d, a subarray type (MPI_Type_create_subarray) of the local array, ghosts
 * included, selects the owned layers next to face d (sent) and another the
 * ghost layers beyond it (received); MPI_Isend sends from the grid and
 * MPI_Irecv receives into its ghost layers directly.  Every face is strided,
 * even in the slab decomposition (DIMS = 1): the rows of an x-y face are
 * separated by the ghost columns; a y face (DIMS >= 2, the subrank layout of
 * run_bench.py) is HALO rows per z plane, an x face HALO values per row.
 * Faces towards MPI_PROC_NULL are not read (the Original packs all six).
 *
 * The dependency graph is Toucan's, implicit (see docs/annotations.md):
 * receive(i) after compute(i-1); send(i) after compute(i-1) and send(i-1);
 * compute(i) after receive(i) and send(i). compute waits for the twelve
 * requests (returns at once under Tucana), sweeps u into unew and swaps
 * them.
 *
 * Variants (same arithmetic for every point, bit-identical results):
 *   jacobi3d.c              Original: exchange, MPI_Waitall, then sweep.
 *   jacobi3d_overlap.c      Overlap: sweep the interior while the faces
 *                           travel, then the boundary layer.
 *   jacobi3d_annotated.c    Tucana: the Original plus a Toucan-form
 *                           superblock (faces packed by hand in the send
 *                           region).
 *   jacobi3d_toucan.c       this file: Toucan form, faces sent and received
 *                           as MPI derived datatypes.
 *   jacobi3d_explicit.c     explicit graph: receive, pack, send, unpack,
 *                           compute.
 *   jacobi3d_directional.c  the same regions per direction (25).
 *   jacobi3d_hybrid.c       Hybrid: MPI between ranks, tasks inside a rank.
 *
 * Output (rank 0):
 *   jacobi3d ranks <P> grid <PX>x<PY>x<PZ> size <NX>x<NY>x<NZ> iterations <I>
 *   residual <max |u_new - u_old| in the last iteration>
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum of the final grid, each value truncated to 2^-32>
 *   check <which self-check ran>
 *   jacobi3d: OK               (or a FAILED line, and exit status 1)
 * The residual (an MPI_MAX) and the checksum (an integer sum) do not depend
 * on the decomposition: they are bitwise the same for any rank count.
 *
 * Self-check: when NX * NY * NZ * ITERATIONS <= 2^26, rank 0 collects the grid
 * and compares it bit for bit with a serial computation; above that, every
 * value must lie in [0, 1] (the maximum principle).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HALO 1 /* ghost layers on each side: the stencil's reach */
#define SERIAL_CHECK_LIMIT (1LL << 26)

/* Directions: axis = d / 2, side = d % 2 (0 low, 1 high); opposite = d ^ 1.
 * A message's tag is the direction it travels in. */
enum { WEST, EAST, SOUTH, NORTH, DOWN, UP, NDIR };
#define TAG_GATHER 10

/* The part of the global grid that one rank holds. */
typedef struct {
    int n[3];     /* global grid size along x, y, z */
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
static Block make_block(const int n[3], const int p[3], int r)
{
    Block b;
    int k[3] = {r % p[0], (r / p[0]) % p[1], r / (p[0] * p[1])};
    for (int a = 0; a < 3; a++) {
        b.n[a] = n[a];
        block_range(n[a], p[a], k[a], &b.first[a], &b.count[a]);
    }
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
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "jacobi3d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
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

/*
 * The subarray type of the box face_box(b, d, ghost) in the local array of
 * b, ghosts included (any grid of the block: u and unew alike), committed;
 * used with count 1 and the grid's first element as the buffer.
 */
static MPI_Datatype face_type(const Block *b, int d, int ghost)
{
    int lo[3], hi[3], sizes[3], subsizes[3], starts[3];
    MPI_Datatype t;
    face_box(b, d, ghost, lo, hi);
    for (int a = 0; a < 3; a++) { /* C order: z, y, x */
        sizes[2 - a] = b->count[a] + 2 * HALO;
        subsizes[2 - a] = hi[a] - lo[a];
        starts[2 - a] = lo[a];
    }
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C,
                             MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

/* Is local index i along axis a on the fixed boundary of the global grid? */
static int on_boundary(const Block *b, int a, int i)
{
    int g = b->first[a] + i - HALO;
    return g < HALO || g >= b->n[a] - HALO;
}

/*
 * One Jacobi sweep over the local box [lo, hi) of owned points of u into
 * unew (the ghosts that the box reaches must be current); returns the
 * largest change.
 */
static double sweep_box(const double *u, double *unew, const Block *b,
                        const int lo[3], const int hi[3])
{
    double diff = 0.0;
    const size_t sy = b->sy, sz = b->sz;
    /* [xs, xe): the part of a row off the fixed boundary along x */
    int xs = HALO - b->first[0] + HALO;
    int xe = b->n[0] - HALO - b->first[0] + HALO;
    xs = xs < lo[0] ? lo[0] : xs > hi[0] ? hi[0] : xs;
    xe = xe > hi[0] ? hi[0] : xe < xs ? xs : xe;
    for (int z = lo[2]; z < hi[2]; z++) {
        int bz = on_boundary(b, 2, z);
        for (int y = lo[1]; y < hi[1]; y++) {
            size_t row = idx(b, 0, y, z);
            if (bz || on_boundary(b, 1, y)) {
                for (int x = lo[0]; x < hi[0]; x++)
                    unew[row + x] = u[row + x];
                continue;
            }
            for (int x = lo[0]; x < xs; x++)
                unew[row + x] = u[row + x];
            for (int x = xe; x < hi[0]; x++)
                unew[row + x] = u[row + x];
            for (int x = xs; x < xe; x++) {
                size_t c = row + (size_t)x;
                double v = (u[c - 1] + u[c + 1] + u[c - sy] + u[c + sy] +
                            u[c - sz] + u[c + sz]) / 6.0;
                double d = fabs(v - u[c]);
                unew[c] = v;
                diff = d > diff ? d : diff;
            }
        }
    }
    return diff;
}

/* The sweep over all owned points. */
static double sweep(const double *u, double *unew, const Block *b)
{
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = HALO;
        hi[a] = HALO + b->count[a];
    }
    return sweep_box(u, unew, b, lo, hi);
}

/* A block with ghosts: 1.0 on the bottom face (global z = 0), else 0.0. */
static double *new_grid(const Block *b)
{
    double *u = xmalloc(b->cells * sizeof(double));
    for (int z = HALO; z < HALO + b->count[2]; z++)
        if (b->first[2] + z - HALO < HALO)
            for (int y = HALO; y < HALO + b->count[1]; y++)
                for (int x = HALO; x < HALO + b->count[0]; x++)
                    u[idx(b, x, y, z)] = 1.0;
    return u;
}

/*
 * Split size ranks into p[0] x p[1] x p[2] (see the header comment);
 * returns 0 when no allowed factorization gives every rank a point.
 */
static int process_grid(int size, const int n[3], int dims, int p[3])
{
    double best = -1.0;
    int best_sum = 0;
    for (int pz = size; pz >= 1; pz--) {
        if (size % pz)
            continue;
        for (int py = size / pz; py >= 1; py--) {
            if ((size / pz) % py)
                continue;
            int q[3] = {size / pz / py, py, pz};
            int split = 0, fits = 1;
            for (int a = 0; a < 3; a++) {
                split += q[a] > 1;
                fits = fits && n[a] / q[a] >= HALO;
            }
            if (!fits || split > dims || (dims == 1 && q[2] != size) ||
                (dims == 2 && q[0] != 1))
                continue;
            double halo = 0.0; /* halo values per rank */
            for (int a = 0; a < 3; a++)
                if (q[a] > 1)
                    halo += 2.0 * ((double)n[(a + 1) % 3] / q[(a + 1) % 3]) *
                            ((double)n[(a + 2) % 3] / q[(a + 2) % 3]);
            int sum = q[0] + q[1] + q[2];
            if (best < 0.0 || halo < best ||
                (halo == best && sum < best_sum)) {
                best = halo;
                best_sum = sum;
                for (int a = 0; a < 3; a++)
                    p[a] = q[a];
            }
        }
    }
    return best >= 0.0;
}

/* v in units of 2^-32, truncated toward zero (clamped far outside [0, 1]):
 * integer sums of these are exact, hence the same in any order. */
static unsigned long long fixed_point(double v)
{
    if (!(v < 0x1p30))
        v = 0x1p30;
    if (v < -0x1p30)
        v = -0x1p30;
    return (unsigned long long)(long long)(v * 0x1p32);
}

int main(int argc, char **argv)
{
    int rank, size, iterations = 50, dims = 3;
    int n[3] = {64, 64, 64}, p[3] = {1, 1, 1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 3)
        for (int a = 0; a < 3; a++)
            n[a] = atoi(argv[1 + a]);
    if (argc > 4)
        iterations = atoi(argv[4]);
    if (argc > 5)
        dims = atoi(argv[5]);
    int valid = (argc == 1 || argc >= 4) && iterations >= 1 && dims >= 1 &&
                dims <= 3 && n[0] >= 1 && n[1] >= 1 && n[2] >= 1;
    if (!valid || !process_grid(size, n, dims, p)) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [ITERATIONS >= 1 [DIMS 1|2|3]]]: "
                    "every one of the %d ranks must own %d point(s) along "
                    "each axis\n",
                    argv[0], size, HALO);
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

    /* State shared by the parts of the loop: declared before it. */
    MPI_Request req[2 * NDIR]; /* [d] receive on face d, [NDIR + d] send */
    MPI_Datatype send_type[NDIR], recv_type[NDIR]; /* owned / ghost layers */
    for (int d = 0; d < NDIR; d++) {
        send_type[d] = face_type(&blk, d, 0);
        recv_type[d] = face_type(&blk, d, 1);
    }
    double local_diff = 0.0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

#pragma tucana superblock
    for (int it = 0; it < iterations; it++) {
#pragma tucana receive
        {
            /* The face from nbr[d] travels in the opposite direction; it
             * lands in the ghost layers of u. */
            for (int d = 0; d < NDIR; d++)
                MPI_Irecv(u, 1, recv_type[d], nbr[d], d ^ 1, MPI_COMM_WORLD,
                          &req[d]);
        }
#pragma tucana send
        {
            for (int d = 0; d < NDIR; d++)
                MPI_Isend(u, 1, send_type[d], nbr[d], d, MPI_COMM_WORLD,
                          &req[NDIR + d]);
        }
#pragma tucana compute
        {
            MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
            local_diff = sweep(u, unew, &blk);
            double *tmp = u;
            u = unew;
            unew = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    double residual = 0.0;
    MPI_Allreduce(&local_diff, &residual, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Checksum of the owned points; the maximum principle. */
    unsigned long long local_sum = 0, checksum = 0;
    int bad = 0, any_bad = 0;
    for (int z = HALO; z < HALO + blk.count[2]; z++)
        for (int y = HALO; y < HALO + blk.count[1]; y++)
            for (int x = HALO; x < HALO + blk.count[0]; x++) {
                double v = u[idx(&blk, x, y, z)];
                local_sum += fixed_point(v);
                if (!(v >= 0.0 && v <= 1.0))
                    bad = 1;
            }
    MPI_Allreduce(&local_sum, &checksum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int ok = !any_bad;

    long long total = (long long)n[0] * n[1] * n[2];
    int serial = total * iterations <= SERIAL_CHECK_LIMIT;
    if (serial) {
        /* Each rank's owned block, packed contiguously in (z, y, x) order. */
        size_t owned = (size_t)blk.count[0] * blk.count[1] * blk.count[2];
        double *mine = xmalloc(owned * sizeof(double));
        size_t m = 0;
        for (int z = HALO; z < HALO + blk.count[2]; z++)
            for (int y = HALO; y < HALO + blk.count[1]; y++)
                for (int x = HALO; x < HALO + blk.count[0]; x++)
                    mine[m++] = u[idx(&blk, x, y, z)];
        if (rank == 0) {
            /* Collect the grid, redo the sweeps serially, compare. */
            const int one[3] = {1, 1, 1};
            Block whole = make_block(n, one, 0);
            double *all = xmalloc(whole.cells * sizeof(double));
            double *part = xmalloc((size_t)total * sizeof(double));
            for (int r = 0; r < size; r++) {
                Block o = make_block(n, p, r);
                int cnt = o.count[0] * o.count[1] * o.count[2];
                if (r == 0)
                    memcpy(part, mine, (size_t)cnt * sizeof(double));
                else
                    MPI_Recv(part, cnt, MPI_DOUBLE, r, TAG_GATHER,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                size_t q = 0;
                for (int z = 0; z < o.count[2]; z++)
                    for (int y = 0; y < o.count[1]; y++)
                        for (int x = 0; x < o.count[0]; x++)
                            all[idx(&whole, o.first[0] + x + HALO,
                                    o.first[1] + y + HALO,
                                    o.first[2] + z + HALO)] = part[q++];
            }
            double *s = new_grid(&whole), *snew = new_grid(&whole);
            double sdiff = 0.0;
            for (int it = 0; it < iterations; it++) {
                sdiff = sweep(s, snew, &whole);
                double *tmp = s;
                s = snew;
                snew = tmp;
            }
            for (int z = HALO; z < HALO + n[2]; z++)
                for (int y = HALO; y < HALO + n[1]; y++)
                    if (memcmp(&all[idx(&whole, HALO, y, z)],
                               &s[idx(&whole, HALO, y, z)],
                               (size_t)n[0] * sizeof(double)) != 0)
                        ok = 0;
            if (sdiff != residual)
                ok = 0;
            free(s);
            free(snew);
            free(part);
            free(all);
        } else {
            MPI_Send(mine, (int)owned, MPI_DOUBLE, 0, TAG_GATHER,
                     MPI_COMM_WORLD);
        }
        free(mine);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("jacobi3d ranks %d grid %dx%dx%d size %dx%dx%d iterations %d\n",
               size, p[0], p[1], p[2], n[0], n[1], n[2], iterations);
        printf("residual %.17g\n", residual);
        printf("time %.6f\n", time_max);
        printf("checksum %.17g\n", (double)(long long)checksum * 0x1p-32);
        printf("check %s\n", serial ? "serial computation, bit for bit"
                                     : "values within [0, 1]");
        if (ok)
            printf("jacobi3d: OK\n");
        else
            printf("jacobi3d: FAILED (%s)\n",
                   any_bad ? "values outside [0, 1]"
                           : "the grid differs from the serial computation");
        fflush(stdout);
    }

    for (int d = 0; d < NDIR; d++) {
        MPI_Type_free(&send_type[d]);
        MPI_Type_free(&recv_type[d]);
    }
    free(u);
    free(unew);
    MPI_Finalize();
    return ok ? 0 : 1;
}
