/*
 * block3d.h -- the code that every variant of the 3D stencil benchmarks
 * jacobi3d, stencil13 and tpod shares: the grid and its decomposition into
 * blocks (PX x PY x PZ ranks, the one with the smallest halo among the
 * allowed factorizations), boxes of local indices, the faces and their
 * packing, the initial grid, the problem (make_problem; setup_problem reads
 * jacobi3d's and stencil13's arguments) and everything after the timed loop:
 * the reductions, the checksum, the self-check and rank 0's report
 * (report_results).  The problem, the output and the self-check are
 * described in jacobi3d/jacobi3d.c's header comment.
 *
 * Included by the program's own header (jacobi3d_common.h,
 * stencil13_common.h, tpod_common.h), which defines first
 *   PROGRAM_NAME        "jacobi3d": the name in the output
 *   HALO                ghost layers on each side: the stencil's reach
 *   DEFAULT_SIZE        NX = NY = NZ without arguments
 *   DEFAULT_ITERATIONS  ITERATIONS without arguments
 *   REPORT_GRIND        (optional, tpod) report_results adds a grind line
 * and after it the stencil itself, sweep_box() (jacobi3d's and tpod's:
 * common/jacobi7.h).  The variants (NAME.c, NAME_*.c) keep only what makes
 * them a variant: the iteration loop with its communication and overlap
 * structure, its pragmas, and its state; jacobi3d's and stencil13's Overlap
 * and Hybrid variants, which have no pragmas, are one program each over
 * this header (common/block3d_overlap.h, common/block3d_hybrid.h).
 *
 * Everything here is a static function, a type or a constant: no global or
 * static variable (the subranks of a Tucana process would share it), and no
 * pragma (the annotations belong to the variant files).  The functions are
 * plain static, not inline, so that the compiler's inlining sees them much
 * as when each variant carried its own copy (the sweep compiles to the same
 * code as before in the overlap variants and the translated Toucan-form and
 * explicit ones; elsewhere GCC now keeps sweep_box apart from sweep: 0.2%
 * more instructions in jacobi3d's Original sweep, under cachegrind);
 * __attribute__((unused)) marks those that some variants do not call (the
 * toucan ones send derived datatypes; tpod's hybrid packs per block).
 */
#ifndef BENCH_BLOCK3D_H
#define BENCH_BLOCK3D_H

#if !defined(PROGRAM_NAME) || !defined(HALO) || !defined(DEFAULT_SIZE) || \
    !defined(DEFAULT_ITERATIONS)
#error "define PROGRAM_NAME, HALO, DEFAULT_SIZE and DEFAULT_ITERATIONS first"
#endif

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm_only.h"

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
        fprintf(stderr, PROGRAM_NAME ": out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Values in the face of direction d: HALO layers of the two other axes. */
static __attribute__((unused)) int face_count(const Block *b, int d)
{
    int a = d / 2;
    return HALO * b->count[(a + 1) % 3] * b->count[(a + 2) % 3];
}

/* A zeroed send and receive buffer for each face of b, and (count not NULL)
 * the number of values in each (face_count). */
static __attribute__((unused)) void new_face_buffers(const Block *b, double *sendbuf[NDIR],
                                                     double *recvbuf[NDIR], int *count)
{
    for (int d = 0; d < NDIR; d++) {
        const int n = face_count(b, d);
        if (count) count[d] = n;
        sendbuf[d] = xmalloc((size_t)n * sizeof(double));
        recvbuf[d] = xmalloc((size_t)n * sizeof(double));
    }
}

/* Frees what new_face_buffers made. */
static __attribute__((unused)) void free_face_buffers(double *sendbuf[NDIR], double *recvbuf[NDIR])
{
    for (int d = 0; d < NDIR; d++) {
        free(sendbuf[d]);
        free(recvbuf[d]);
    }
}

/* The box [lo, hi) of the owned points: local indices HALO .. HALO + count. */
static void owned_box(const Block *b, int lo[3], int hi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = HALO;
        hi[a] = HALO + b->count[a];
    }
}

/* Values in the box [lo, hi). */
static __attribute__((unused)) int box_count(const int lo[3], const int hi[3])
{
    return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
}

/*
 * The HALO layers of the box [lo, hi) (owned points) next to its face d:
 * its own outermost layers (ghost = 0) or the layers just beyond it
 * (ghost = 1) into [flo, fhi).
 */
static void box_face(const int lo[3], const int hi[3], int d, int ghost,
                     int flo[3], int fhi[3])
{
    int a = d / 2;
    for (int k = 0; k < 3; k++) {
        flo[k] = lo[k];
        fhi[k] = hi[k];
    }
    if (d % 2 == 0)
        flo[a] = ghost ? lo[a] - HALO : lo[a];
    else
        flo[a] = ghost ? hi[a] : hi[a] - HALO;
    fhi[a] = flo[a] + HALO;
}

/*
 * The box [lo, hi) of local indices next to face d of the block: the owned
 * layers that are sent (ghost = 0) or the ghost layers that are received
 * (ghost = 1).
 */
static void face_box(const Block *b, int d, int ghost, int lo[3], int hi[3])
{
    int olo[3], ohi[3];
    owned_box(b, olo, ohi);
    box_face(olo, ohi, d, ghost, lo, hi);
}

/* The values of u in the box [lo, hi) into buf, x fastest. */
static __attribute__((unused)) void pack_box(const double *u, const Block *b,
                                             const int lo[3], const int hi[3],
                                             double *buf)
{
    size_t k = 0;
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                buf[k++] = u[idx(b, x, y, z)];
}

/* buf into the box [lo, hi) of u, x fastest (pack_box's inverse). */
static __attribute__((unused)) void unpack_box(double *u, const Block *b,
                                               const int lo[3], const int hi[3],
                                               const double *buf)
{
    size_t k = 0;
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int x = lo[0]; x < hi[0]; x++)
                u[idx(b, x, y, z)] = buf[k++];
}

static __attribute__((unused)) void pack_face(const double *u, const Block *b, int d, double *buf)
{
    int lo[3], hi[3];
    face_box(b, d, 0, lo, hi);
    pack_box(u, b, lo, hi, buf);
}

static __attribute__((unused)) void unpack_face(double *u, const Block *b, int d, const double *buf)
{
    int lo[3], hi[3];
    face_box(b, d, 1, lo, hi);
    unpack_box(u, b, lo, hi, buf);
}

/* Is local index i along axis a on the fixed boundary of the global grid? */
static int on_boundary(const Block *b, int a, int i)
{
    int g = b->first[a] + i - HALO;
    return g < HALO || g >= b->n[a] - HALO;
}

/*
 * The program's sweep over the local box [lo, hi) of owned points of u into
 * unew (the ghosts that the box reaches must be current); returns the
 * largest change.  Defined by the program's header, after this one.
 */
static double sweep_box(const double *u, double *unew, const Block *b,
                        const int lo[3], const int hi[3]);

/* The sweep over all owned points (none in a bound build: comm_only.h). */
static double sweep(const double *u, double *unew, const Block *b)
{
    if (COMM_ONLY)
        return 0.0;
    int lo[3], hi[3];
    owned_box(b, lo, hi);
    return sweep_box(u, unew, b, lo, hi);
}

/* A block with ghosts: 1.0 on the bottom layers (global z < HALO), else 0.0. */
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

/* The problem of one run as this rank sees it. */
typedef struct {
    int rank, size;   /* in MPI_COMM_WORLD */
    int n[3];         /* global grid size along x, y, z */
    int iterations;   /* of the timed loop */
    int p[3];         /* the process grid, PX x PY x PZ */
    Block blk;        /* this rank's block */
    int nbr[NDIR];    /* the neighbour in each direction, or MPI_PROC_NULL */
} Problem;

/*
 * The problem of n[0] x n[1] x n[2] points and the given iterations on the
 * ranks of MPI_COMM_WORLD split along at most dims axes (1: z only, 2: y and
 * z, 3: all): chooses the process grid, this rank's block and its
 * neighbours.  Call after MPI_Init, with the same arguments on every rank.
 * Returns 1, or 0 (on every rank; *pb is then unset) when no allowed process
 * grid gives every rank HALO points along each axis.
 */
static int make_problem(const int n[3], int iterations, int dims, Problem *pb)
{
    int rank, size, p[3] = {1, 1, 1};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!process_grid(size, n, dims, p))
        return 0;

    pb->rank = rank;
    pb->size = size;
    pb->iterations = iterations;
    for (int a = 0; a < 3; a++) {
        pb->n[a] = n[a];
        pb->p[a] = p[a];
    }
    pb->blk = make_block(n, p, rank);
    int k[3] = {rank % p[0], (rank / p[0]) % p[1], rank / (p[0] * p[1])};
    int stride[3] = {1, p[0], p[0] * p[1]};
    for (int a = 0; a < 3; a++) {
        pb->nbr[2 * a] = k[a] > 0 ? rank - stride[a] : MPI_PROC_NULL;
        pb->nbr[2 * a + 1] = k[a] + 1 < p[a] ? rank + stride[a] : MPI_PROC_NULL;
    }
    return 1;
}

/*
 * The arguments that every program of this header starts with: NX NY NZ
 * (argv[1 .. 3], when argc > 3) into n and ITERATIONS (argv[4], when
 * argc > 4) into *iterations; those absent keep their value (the default).
 * Checks nothing: the caller validates.
 */
static void read_size_args(int argc, char **argv, int n[3], int *iterations)
{
    if (argc > 3)
        for (int a = 0; a < 3; a++)
            n[a] = atoi(argv[1 + a]);
    if (argc > 4)
        *iterations = atoi(argv[4]);
}

/*
 * Reads [NX NY NZ [ITERATIONS [DIMS]]] (defaults DEFAULT_SIZE for each axis,
 * DEFAULT_ITERATIONS, DIMS 3; with
 * slabs_only, the hybrid's, DIMS defaults to 1 and must be 1) and makes the
 * problem (make_problem).  Call after MPI_Init.
 * Returns 1, or 0 after rank 0 printed the usage when the arguments are
 * invalid or no allowed process grid gives every rank a point along each
 * axis (the same answer on every rank: the caller finalizes and exits 1).
 */
static __attribute__((unused)) int setup_problem(int argc, char **argv,
                                                 int slabs_only, Problem *pb)
{
    int rank, size, iterations = DEFAULT_ITERATIONS, dims = slabs_only ? 1 : 3;
    int n[3] = {DEFAULT_SIZE, DEFAULT_SIZE, DEFAULT_SIZE};

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    read_size_args(argc, argv, n, &iterations);
    if (argc > 5)
        dims = atoi(argv[5]);
    int valid = (argc == 1 || argc >= 4) && iterations >= 1 &&
                (slabs_only ? dims == 1 : dims >= 1 && dims <= 3) &&
                n[0] >= 1 && n[1] >= 1 && n[2] >= 1;
    if (!valid || !make_problem(n, iterations, dims, pb)) {
        if (rank == 0 && slabs_only)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [ITERATIONS >= 1 [DIMS 1]]]: "
                    "the hybrid variant splits z only (DIMS 1), and every "
                    "one of the %d ranks must own %d point(s) along each "
                    "axis\n",
                    argv[0], size, HALO);
        else if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [ITERATIONS >= 1 [DIMS 1|2|3]]]: "
                    "every one of the %d ranks must own %d point(s) along "
                    "each axis\n",
                    argv[0], size, HALO);
        return 0;
    }
    return 1;
}

/*
 * Everything after the timed loop, on every rank: the maximum of elapsed
 * (this rank's seconds in the loop) and of local_diff (its largest change in
 * the last iteration), the checksum of u (the final grid), the self-check,
 * and rank 0's report (detail: a line that the variant adds after the
 * first, without its newline, e.g. the hybrid's "tasks V"; NULL for none;
 * with REPORT_GRIND defined, a line "grind <ns> ns per point per step" after
 * "time").  Returns 1 on every rank when the check passed, else 0.
 */
static int report_results(const Problem *pb, const double *u,
                          double local_diff, double elapsed, const char *detail)
{
    const int rank = pb->rank, size = pb->size, iterations = pb->iterations;
    const int *n = pb->n, *p = pb->p;
    const Block blk = pb->blk;
    double time_max = 0.0;
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
    int ok = !any_bad || COMM_ONLY;

    long long total = (long long)n[0] * n[1] * n[2];
    int serial = !COMM_ONLY && total * iterations <= SERIAL_CHECK_LIMIT;
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
        printf(PROGRAM_NAME " ranks %d grid %dx%dx%d size %dx%dx%d iterations %d\n",
               size, p[0], p[1], p[2], n[0], n[1], n[2], iterations);
        if (detail != NULL)
            printf("%s\n", detail);
        printf("residual %.17g\n", residual);
        printf("time %.6f\n", time_max);
#ifdef REPORT_GRIND
        printf("grind %.4f ns per point per step\n",
               time_max * 1e9 / ((double)total * iterations));
#endif
        printf("checksum %.17g\n", (double)(long long)checksum * 0x1p-32);
        const char *check = serial ? "serial computation, bit for bit"
                                   : "values within [0, 1]";
        if (COMM_ONLY) /* nothing was computed: no check, no verdict */
            printf("%s\n", COMM_ONLY_LINE);
        else if (ok)
            printf("check %s\n" PROGRAM_NAME ": OK\n", check);
        else
            printf("check %s\n" PROGRAM_NAME ": FAILED (%s)\n", check,
                   any_bad ? "values outside [0, 1]"
                           : "the grid differs from the serial computation");
        fflush(stdout);
    }

    return ok;
}

#endif /* BENCH_BLOCK3D_H */
