/*
 * multigrid_common.h -- what every variant of multigrid (multigrid.c,
 * multigrid_annotated.c, multigrid_overlap.c) shares, outside main(): the
 * levels, their exchange of faces, edges and corners, the 27-point operator,
 * the residual, restriction and prolongation, the process grid, the setup
 * and teardown and the checksum.  The problem, the output and the self-check
 * are described in multigrid.c's header comment.  Static functions, types
 * and constants only: no global or static variable (the subranks of a Tucana
 * process would share it), and no pragma (the annotations stay in the
 * variant files).
 */
#ifndef MULTIGRID_COMMON_H
#define MULTIGRID_COMMON_H

#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/comm_only.h"

#define NU1 2              /* pre-smoothing sweeps */
#define NU2 2              /* post-smoothing sweeps */
#define OMEGA 0.8          /* damping of the smoother */
#define NDIR 26            /* neighbours: faces, edges, corners */
#define TAG_SMOOTH 0       /* + direction: the smoother's exchanges */
#define TAG_EXCHANGE 32    /* + direction: the other exchanges */
#define TAG_GATHER 64
#define SERIAL_CHECK_MAX_N 64

/* Direction i: offsets along x, y, z; the opposite direction is 25 - i. */
static const signed char DIRS[NDIR][3] = {
    {-1, -1, -1}, {0, -1, -1}, {1, -1, -1}, {-1, 0, -1}, {0, 0, -1},
    {1, 0, -1},   {-1, 1, -1}, {0, 1, -1},  {1, 1, -1},  {-1, -1, 0},
    {0, -1, 0},   {1, -1, 0},  {-1, 0, 0},  {1, 0, 0},   {-1, 1, 0},
    {0, 1, 0},    {1, 1, 0},   {-1, -1, 1}, {0, -1, 1},  {1, -1, 1},
    {-1, 0, 1},   {0, 0, 1},   {1, 0, 1},   {-1, 1, 1},  {0, 1, 1},
    {1, 1, 1}};

/* One level of the grid hierarchy, as held by one rank. */
typedef struct {
    int n[3];               /* intervals per axis: points 0..n[a] */
    int m[3];               /* owned points per axis: local 1..m */
    int first[3];           /* global index of local point 1 */
    size_t sy, sz, cells;   /* layout with one ghost layer, x fastest */
    double h2;              /* h^2 */
    double *u, *tmp, *f, *r;
    int count[NDIR];        /* values exchanged in direction i */
    double *sendbuf[NDIR], *recvbuf[NDIR];
} Level;

/* Everything a rank needs; no global variables. */
typedef struct {
    int p[3], k[3];         /* process grid, this rank's position */
    int nbr[NDIR];          /* neighbour rank in direction i, or PROC_NULL */
    int nlevels;
    Level *lv;              /* lv[0] finest */
} Multigrid;

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "multigrid: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static size_t at(const Level *L, int x, int y, int z)
{
    return (size_t)z * L->sz + (size_t)y * L->sy + (size_t)x;
}

/* Right-hand side at global point (x, y, z): [-1, 1). */
static double rhs(int x, int y, int z)
{
    unsigned long long h =
        ((unsigned long long)x * 73856093ULL) ^
        ((unsigned long long)y * 19349663ULL) ^
        ((unsigned long long)z * 83492791ULL);
    h = (h + 1) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return (double)(h >> 11) * 0x1.0p-52 - 1.0;
}

/*
 * The box [lo, hi) of local indices for direction i: the owned points sent
 * (ghost = 0) or the ghost points received (ghost = 1).
 */
static void dir_box(const Level *L, int i, int ghost, int lo[3], int hi[3])
{
    for (int a = 0; a < 3; a++) {
        int d = DIRS[i][a];
        if (d == 0) {
            lo[a] = 1;
            hi[a] = L->m[a] + 1;
        } else if (d < 0) {
            lo[a] = ghost ? 0 : 1;
            hi[a] = lo[a] + 1;
        } else {
            lo[a] = ghost ? L->m[a] + 1 : L->m[a];
            hi[a] = lo[a] + 1;
        }
    }
}

static void pack_dir(const Level *L, int i, const double *x, double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    dir_box(L, i, 0, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int xx = lo[0]; xx < hi[0]; xx++)
                buf[k++] = x[at(L, xx, y, z)];
}

static void unpack_dir(const Level *L, int i, double *x, const double *buf)
{
    int lo[3], hi[3];
    size_t k = 0;
    dir_box(L, i, 1, lo, hi);
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++)
            for (int xx = lo[0]; xx < hi[0]; xx++)
                x[at(L, xx, y, z)] = buf[k++];
}

/* Fill the ghosts of x (one level's array) from the 26 neighbours. */
static void exchange(const Multigrid *mg, const Level *L, double *x)
{
    MPI_Request req[2 * NDIR];
    for (int i = 0; i < NDIR; i++)
        MPI_Irecv(L->recvbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                  TAG_EXCHANGE + (NDIR - 1 - i), MPI_COMM_WORLD, &req[i]);
    for (int i = 0; i < NDIR; i++) {
        pack_dir(L, i, x, L->sendbuf[i]);
        MPI_Isend(L->sendbuf[i], L->count[i], MPI_DOUBLE, mg->nbr[i],
                  TAG_EXCHANGE + i, MPI_COMM_WORLD, &req[NDIR + i]);
    }
    MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < NDIR; i++)
        if (mg->nbr[i] != MPI_PROC_NULL)
            unpack_dir(L, i, x, L->recvbuf[i]);
}

/* The sum of the 9 points of the plane around p (x fastest, rows sy apart),
 * or of the 8 around it (center left out); row by row, in a fixed order. */
static double plane9(const double *p, ptrdiff_t sy)
{
    return ((p[-sy - 1] + p[-sy] + p[-sy + 1]) + (p[-1] + p[0] + p[1])) +
           (p[sy - 1] + p[sy] + p[sy + 1]);
}

static double ring8(const double *p, ptrdiff_t sy)
{
    return ((p[-sy - 1] + p[-sy] + p[-sy + 1]) + (p[-1] + p[1])) +
           (p[sy - 1] + p[sy] + p[sy + 1]);
}

/* The sum of the 26 neighbours of the point at offset c, in a fixed order
 * (short dependency chains, so that consecutive points overlap). */
static double neighbour_sum(const Level *L, const double *x, size_t c)
{
    ptrdiff_t sy = (ptrdiff_t)L->sy, sz = (ptrdiff_t)L->sz;
    const double *p = x + c;
    return (plane9(p - sz, sy) + plane9(p + sz, sy)) + ring8(p, sy);
}

/*
 * One damped Jacobi sweep over the local box [lo, hi) of owned points:
 * tmp = (1 - omega) u + omega (9 h^2 f + neighbour sum) / 26, except at the
 * boundary points (global index 0 on some axis), which keep u = 0.
 */
static void sweep_box(Level *L, double omega, const int lo[3],
                      const int hi[3])
{
    if (COMM_ONLY) /* a bound build computes nothing: common/comm_only.h */
        return;
    const double *u = L->u, *f = L->f;
    double *t = L->tmp;
    double c9h2 = 9.0 * L->h2;
    for (int z = lo[2]; z < hi[2]; z++)
        for (int y = lo[1]; y < hi[1]; y++) {
            int edge = L->first[2] + z - 1 == 0 || L->first[1] + y - 1 == 0;
            for (int x = lo[0]; x < hi[0]; x++) {
                size_t c = at(L, x, y, z);
                if (edge || L->first[0] + x - 1 == 0) {
                    t[c] = u[c];
                    continue;
                }
                double jac = (c9h2 * f[c] + neighbour_sum(L, u, c)) / 26.0;
                t[c] = (1.0 - omega) * u[c] + omega * jac;
            }
        }
}

/* The sweep over all owned points, then swap u and tmp (the Original's and
 * the annotated variant's smoothing step; the Overlap splits the box). */
static __attribute__((unused)) void sweep(Level *L, double omega)
{
    int lo[3] = {1, 1, 1}, hi[3] = {L->m[0] + 1, L->m[1] + 1, L->m[2] + 1};
    sweep_box(L, omega, lo, hi);
    double *t = L->u;
    L->u = L->tmp;
    L->tmp = t;
}

/* The pre-smoothing of the V-cycle on level L: the number of sweeps (NU1;
 * on the coarsest level the approximate solve, max(16, nmin * nmax) sweeps
 * over its smallest and largest extent) and their damping into *omega
 * (OMEGA; 1.0 on the coarsest level). */
static int presmoothing(const Level *L, int coarsest, double *omega)
{
    int nmin = L->n[0] < L->n[1] ? L->n[0] : L->n[1];
    int nmax = L->n[0] > L->n[1] ? L->n[0] : L->n[1];
    nmin = nmin < L->n[2] ? nmin : L->n[2];
    nmax = nmax > L->n[2] ? nmax : L->n[2];
    *omega = coarsest ? 1.0 : OMEGA;
    return coarsest ? (nmin * nmax > 16 ? nmin * nmax : 16) : NU1;
}

/* r = f - A u on the owned points (u's ghosts current); local max |r|. */
static double residual_local(Level *L)
{
    if (COMM_ONLY)
        return 0.0;
    double norm = 0.0, c9h2 = 9.0 * L->h2;
    for (int z = 1; z <= L->m[2]; z++)
        for (int y = 1; y <= L->m[1]; y++)
            for (int x = 1; x <= L->m[0]; x++) {
                size_t c = at(L, x, y, z);
                if (L->first[0] + x - 1 == 0 || L->first[1] + y - 1 == 0 ||
                    L->first[2] + z - 1 == 0) {
                    L->r[c] = 0.0;
                    continue;
                }
                L->r[c] = L->f[c] -
                          (26.0 * L->u[c] - neighbour_sum(L, L->u, c)) / c9h2;
                double a = fabs(L->r[c]);
                norm = a > norm ? a : norm;
            }
    return norm;
}

static double residual(const Multigrid *mg, Level *L)
{
    exchange(mg, L, L->u);
    return residual_local(L);
}

/* Coarse right-hand side: full weighting of the fine residual; u_c = 0. */
static void restrict_residual(const Multigrid *mg, Level *fine, Level *coarse)
{
    const double w[3] = {0.25, 0.5, 0.25};
    exchange(mg, fine, fine->r);
    if (COMM_ONLY)
        return;
    for (int z = 1; z <= coarse->m[2]; z++)
        for (int y = 1; y <= coarse->m[1]; y++)
            for (int x = 1; x <= coarse->m[0]; x++) {
                size_t c = at(coarse, x, y, z);
                if (coarse->first[0] + x - 1 == 0 ||
                    coarse->first[1] + y - 1 == 0 ||
                    coarse->first[2] + z - 1 == 0) {
                    coarse->f[c] = 0.0;
                    continue;
                }
                /* fine local index of coarse local j is 2j - 1 */
                double s = 0.0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            s += w[dz + 1] * w[dy + 1] * w[dx + 1] *
                                 fine->r[at(fine, 2 * x - 1 + dx,
                                            2 * y - 1 + dy, 2 * z - 1 + dz)];
                coarse->f[c] = s;
            }
    for (size_t c = 0; c < coarse->cells; c++)
        coarse->u[c] = coarse->tmp[c] = 0.0;
}

/* u_fine += trilinear interpolation of the coarse correction. */
static void prolong_add(const Multigrid *mg, Level *coarse, Level *fine)
{
    exchange(mg, coarse, coarse->u);
    if (COMM_ONLY)
        return;
    for (int z = 1; z <= fine->m[2]; z++)
        for (int y = 1; y <= fine->m[1]; y++)
            for (int x = 1; x <= fine->m[0]; x++) {
                int g[3] = {fine->first[0] + x - 1, fine->first[1] + y - 1,
                            fine->first[2] + z - 1};
                if (g[0] == 0 || g[1] == 0 || g[2] == 0)
                    continue;
                int j[3];
                double wl[3], wh[3];
                for (int a = 0; a < 3; a++) {
                    j[a] = g[a] / 2 - coarse->first[a] + 1;
                    wl[a] = g[a] % 2 == 0 ? 1.0 : 0.5;
                    wh[a] = g[a] % 2 == 0 ? 0.0 : 0.5;
                }
                double e = 0.0;
                for (int dz = 0; dz <= 1; dz++)
                    for (int dy = 0; dy <= 1; dy++)
                        for (int dx = 0; dx <= 1; dx++)
                            e += (dx ? wh[0] : wl[0]) * (dy ? wh[1] : wl[1]) *
                                 (dz ? wh[2] : wl[2]) *
                                 coarse->u[at(coarse, j[0] + dx, j[1] + dy,
                                              j[2] + dz)];
                fine->u[at(fine, x, y, z)] += e;
            }
}

/*
 * Split size ranks into p[0] x p[1] x p[2] (see the header comment) among
 * the factorizations where P_a divides n[a]; returns 0 if there is none.
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
            if (n[0] % q[0] || n[1] % q[1] || n[2] % q[2] ||
                (dims == 1 && q[2] != size) || (dims == 2 && q[0] != 1))
                continue;
            double halo = 0.0; /* face values per rank */
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

/* Set up the hierarchy of a rank at position k of a p[0] x p[1] x p[2]
 * grid (nbr: its neighbours, MPI_PROC_NULL where there are none). */
static void setup(Multigrid *mg, const int n[3], int nlevels, const int p[3],
                  const int k[3], const int nbr[NDIR])
{
    for (int a = 0; a < 3; a++) {
        mg->p[a] = p[a];
        mg->k[a] = k[a];
    }
    for (int i = 0; i < NDIR; i++)
        mg->nbr[i] = nbr[i];
    mg->nlevels = nlevels;
    mg->lv = xmalloc((size_t)nlevels * sizeof(Level));
    for (int l = 0; l < nlevels; l++) {
        Level *L = &mg->lv[l];
        for (int a = 0; a < 3; a++) {
            L->n[a] = n[a] >> l;
            L->m[a] = L->n[a] / p[a];
            L->first[a] = k[a] * L->m[a];
        }
        L->sy = (size_t)(L->m[0] + 2);
        L->sz = L->sy * (size_t)(L->m[1] + 2);
        L->cells = L->sz * (size_t)(L->m[2] + 2);
        L->h2 = 1.0 / ((double)L->n[0] * (double)L->n[0]);
        L->u = xmalloc(L->cells * sizeof(double));
        L->tmp = xmalloc(L->cells * sizeof(double));
        L->f = xmalloc(L->cells * sizeof(double));
        L->r = xmalloc(L->cells * sizeof(double));
        for (int i = 0; i < NDIR; i++) {
            int lo[3], hi[3];
            dir_box(L, i, 0, lo, hi);
            L->count[i] = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
            L->sendbuf[i] = xmalloc((size_t)L->count[i] * sizeof(double));
            L->recvbuf[i] = xmalloc((size_t)L->count[i] * sizeof(double));
        }
    }
    Level *F = &mg->lv[0];
    for (int z = 1; z <= F->m[2]; z++)
        for (int y = 1; y <= F->m[1]; y++)
            for (int x = 1; x <= F->m[0]; x++) {
                int gx = F->first[0] + x - 1, gy = F->first[1] + y - 1,
                    gz = F->first[2] + z - 1;
                F->f[at(F, x, y, z)] =
                    gx == 0 || gy == 0 || gz == 0 ? 0.0 : rhs(gx, gy, gz);
            }
}

static void teardown(Multigrid *mg)
{
    for (int l = 0; l < mg->nlevels; l++) {
        Level *L = &mg->lv[l];
        free(L->u);
        free(L->tmp);
        free(L->f);
        free(L->r);
        for (int i = 0; i < NDIR; i++) {
            free(L->sendbuf[i]);
            free(L->recvbuf[i]);
        }
    }
    free(mg->lv);
}

/* v in units of 2^-40, truncated toward zero (clamped far outside the
 * solution's range): integer sums of these are exact in any order. */
static unsigned long long fixed_point(double v)
{
    if (!(v < 0x1p20))
        v = 0x1p20;
    if (v < -0x1p20)
        v = -0x1p20;
    return (unsigned long long)(long long)(v * 0x1p40);
}

/* The V-cycle from level down: the variant's, defined in its own file (the
 * only part in which the variants differ). */
static void vcycle(Multigrid *mg, int level);

/*
 * The whole program but the V-cycle, the same for every variant: arguments,
 * process grid, levels, the timed loop of CYCLES V-cycles, the reductions,
 * the checksum, the self-check and rank 0's report.  Returns main's exit
 * status.
 */
static int run_multigrid(int argc, char **argv)
{
    int rank, size, cycles = 6, dims = 3, nlevels = 0;
    int n[3] = {32, 32, 32}, p[3] = {1, 1, 1};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 3)
        for (int a = 0; a < 3; a++)
            n[a] = atoi(argv[1 + a]);
    if (argc > 4)
        cycles = atoi(argv[4]);
    if (argc > 5)
        dims = atoi(argv[5]);
    if (argc > 6)
        nlevels = atoi(argv[6]);
    int valid = (argc == 1 || argc >= 4) && n[0] >= 4 && n[1] >= 4 &&
                n[2] >= 4 && cycles >= 1 && dims >= 1 && dims <= 3 &&
                nlevels >= 0 && nlevels <= 30 &&
                process_grid(size, n, dims, p);
    if (valid && nlevels == 0) {
        /* Coarsen while every axis keeps 4 intervals and every rank whole
         * points. */
        nlevels = 1;
        for (int more = 1; more; nlevels += more)
            for (int a = 0; a < 3; a++) {
                int nl = n[a] >> (nlevels - 1);
                if (nl % 2 || nl / 2 < 4 || (nl / p[a]) % 2)
                    more = 0;
            }
    }
    if (valid)
        for (int a = 0; a < 3; a++)
            if (n[a] % (p[a] << (nlevels - 1)) != 0 ||
                (n[a] >> (nlevels - 1)) < 2)
                valid = 0;
    if (!valid) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [CYCLES [DIMS 1|2|3 [LEVELS]]]], "
                    "NX, NY, NZ >= 4: the process grid (%dx%dx%d for %d "
                    "ranks) times 2^(LEVELS-1) must divide NX, NY, NZ\n",
                    argv[0], p[0], p[1], p[2], size);
        MPI_Finalize();
        return 1;
    }

    int k[3] = {rank % p[0], (rank / p[0]) % p[1], rank / (p[0] * p[1])};
    int nbr[NDIR];
    for (int i = 0; i < NDIR; i++) {
        int q[3], inside = 1;
        for (int a = 0; a < 3; a++) {
            q[a] = k[a] + DIRS[i][a];
            inside = inside && q[a] >= 0 && q[a] < p[a];
        }
        nbr[i] = inside ? (q[2] * p[1] + q[1]) * p[0] + q[0] : MPI_PROC_NULL;
    }
    Multigrid mg;
    setup(&mg, n, nlevels, p, k, nbr);

    double *history = xmalloc((size_t)(cycles + 1) * sizeof(double));
    double local = residual(&mg, &mg.lv[0]);
    MPI_Allreduce(&local, &history[0], 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int c = 1; c <= cycles; c++) {
        vcycle(&mg, 0);
        local = residual(&mg, &mg.lv[0]);
        MPI_Allreduce(&local, &history[c], 1, MPI_DOUBLE, MPI_MAX,
                      MPI_COMM_WORLD);
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Checksum of the fine solution. */
    Level *F = &mg.lv[0];
    unsigned long long local_sum = 0, checksum = 0;
    for (int z = 1; z <= F->m[2]; z++)
        for (int y = 1; y <= F->m[1]; y++)
            for (int x = 1; x <= F->m[0]; x++)
                local_sum += fixed_point(F->u[at(F, x, y, z)]);
    MPI_Allreduce(&local_sum, &checksum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);

    /* Rounding errors in A u are about eps |u| 26 / (9 h^2): below this
     * floor (with a wide margin) the residual need not fall any more. */
    double floor = 100.0 * DBL_EPSILON * (double)n[0] * (double)n[0];
    int ok = 1; /* (all residuals are 0 in a bound build: it passes) */
    for (int c = 1; c <= cycles; c++)
        if (history[c - 1] > floor && !(history[c] < history[c - 1]))
            ok = 0;
    double target = history[0];
    for (int c = 1; c <= cycles; c++)
        target *= 0.3;
    if (!(history[cycles] <= (target > floor ? target : floor)))
        ok = 0;
    int converged = ok;

    /* Serial repetition on one block, compared bit for bit. */
    int serial = !COMM_ONLY && n[0] <= SERIAL_CHECK_MAX_N && n[1] <= SERIAL_CHECK_MAX_N &&
                 n[2] <= SERIAL_CHECK_MAX_N;
    if (serial) {
        size_t owned = (size_t)F->m[0] * F->m[1] * F->m[2];
        double *mine = xmalloc(owned * sizeof(double));
        size_t q = 0;
        for (int z = 1; z <= F->m[2]; z++)
            for (int y = 1; y <= F->m[1]; y++)
                for (int x = 1; x <= F->m[0]; x++)
                    mine[q++] = F->u[at(F, x, y, z)];
        if (rank == 0) {
            const int one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
            int none[NDIR];
            for (int i = 0; i < NDIR; i++)
                none[i] = MPI_PROC_NULL;
            Multigrid s;
            setup(&s, n, nlevels, one, zero, none);
            double sres = residual(&s, &s.lv[0]);
            if (sres != history[0])
                ok = 0;
            for (int c = 1; c <= cycles; c++) {
                vcycle(&s, 0);
                sres = residual(&s, &s.lv[0]);
                if (sres != history[c])
                    ok = 0;
            }
            Level *S = &s.lv[0];
            double *part = xmalloc((size_t)n[0] * n[1] * n[2] * sizeof(double));
            for (int r = 0; r < size; r++) {
                int kr[3] = {r % p[0], (r / p[0]) % p[1], r / (p[0] * p[1])};
                int m[3] = {n[0] / p[0], n[1] / p[1], n[2] / p[2]};
                int cnt = m[0] * m[1] * m[2];
                if (r == 0)
                    memcpy(part, mine, (size_t)cnt * sizeof(double));
                else
                    MPI_Recv(part, cnt, MPI_DOUBLE, r, TAG_GATHER,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                size_t t = 0;
                for (int z = 0; z < m[2]; z++)
                    for (int y = 0; y < m[1]; y++)
                        for (int x = 0; x < m[0]; x++) {
                            double want = S->u[at(S, kr[0] * m[0] + x + 1,
                                                  kr[1] * m[1] + y + 1,
                                                  kr[2] * m[2] + z + 1)];
                            if (memcmp(&part[t++], &want, sizeof want) != 0)
                                ok = 0;
                        }
            }
            free(part);
            teardown(&s);
        } else {
            MPI_Send(mine, (int)owned, MPI_DOUBLE, 0, TAG_GATHER,
                     MPI_COMM_WORLD);
        }
        free(mine);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("multigrid ranks %d grid %dx%dx%d size %dx%dx%d levels %d "
               "cycles %d\n",
               size, p[0], p[1], p[2], n[0], n[1], n[2], nlevels, cycles);
        for (int c = 0; c <= cycles; c++)
            printf("cycle %d residual %.17g\n", c, history[c]);
        printf("time %.6f\n", time_max);
        printf("checksum %.17g\n", (double)(long long)checksum * 0x1p-40);
        if (COMM_ONLY) { /* nothing was computed: no check, no verdict */
            printf("%s\n", COMM_ONLY_LINE);
        } else {
            printf("check residual falls%s\n",
                   serial ? "; serial computation, bit for bit" : "");
            if (ok)
                printf("multigrid: OK\n");
            else
                printf("multigrid: FAILED (%s)\n",
                       converged ? "the solution differs from the serial "
                                   "computation"
                                 : "the residual did not fall as expected");
        }
        fflush(stdout);
    }

    free(history);
    teardown(&mg);
    MPI_Finalize();
    return ok ? 0 : 1;
}

#endif /* MULTIGRID_COMMON_H */
