/*
 * multigrid -- V-cycle multigrid for the 1D Poisson problem, a plain MPI
 * program whose smoother runs inside a recursive function.
 *
 * Usage: multigrid [N [CYCLES [LEVELS]]]
 *        (defaults: N = 1024, CYCLES = 10, LEVELS = log2(N / 8) + 1)
 *
 * Problem: -u'' = f on [0, 1], u(0) = u(1) = 0, discretized on N intervals
 * (points 0..N, h = 1/N): (2 u_i - u_{i-1} - u_{i+1}) / h^2 = f_i, with f_i a
 * pseudo-random value in [-1, 1) computed from i.  Starting from u = 0, the
 * program runs CYCLES V-cycles and prints the max-norm of the residual
 * f - A u before the first and after each cycle.
 *
 * V-cycle, vcycle(level) (recursive):
 *   pre-smooth:  NU1 = 2 sweeps of damped Jacobi (omega = 2/3), each a halo
 *                exchange plus a sweep -- the first superblock;
 *   on the coarsest level the same loop runs COARSE = n_c * n_c undamped
 *                sweeps instead (n_c its intervals) and the recursion stops;
 *   residual, restriction by full weighting to the next coarser level
 *                (2x coarser, zero initial guess), vcycle(level + 1),
 *                prolongation by linear interpolation, correction;
 *   post-smooth: NU2 = 2 damped Jacobi sweeps -- the second superblock.
 *
 * Decomposition: every level is split in equal contiguous blocks, rank r
 * owning points [r * m, (r + 1) * m) of a level with m * size intervals, so
 * a coarse point 2J's owner also owns J: restriction and prolongation need
 * only one ghost value on each side.  Hence size * 2^(LEVELS - 1) must
 * divide N.  Point 0 is a fixed boundary point owned by rank 0; point N is
 * the last rank's right ghost, always 0.  The halo exchanges outside the
 * superblocks (for the residual and the interpolation) use MPI_Sendrecv.
 *
 * multigrid_annotated.c is this same program with Tucana's pragmas added
 * (and nothing else changed); a plain compiler ignores them.
 *
 * Reproducibility: the grids and the operations on them do not depend on
 * the number of ranks, and the max-norm is combined with MPI_MAX (exact in
 * any order), so all output lines but the "ranks" line are bitwise identical
 * for any number of ranks.
 *
 * Self-check: the residual must decrease in every cycle, and by at least a
 * factor 1e6 overall when CYCLES >= 8 -- until it reaches the level of
 * rounding errors (0.1 * DBL_EPSILON * N^2, a wide margin above it), where
 * it stagnates.
 *
 * Output (rank 0):
 *   cycle <k> residual <max |f - A u|>     k = 0 .. CYCLES
 *   ranks <P> N <N> levels <L> cycles <C> time <seconds>
 *   multigrid: OK              (or a FAILED line, and exit status 1)
 */
#include <float.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TAG_TO_LEFT 1   /* a value travelling to rank - 1 */
#define TAG_TO_RIGHT 2  /* a value travelling to rank + 1 */
#define NU1 2           /* pre-smoothing sweeps */
#define NU2 2           /* post-smoothing sweeps */

/* One level of the grid hierarchy, as held by one rank. */
typedef struct {
    int n;      /* intervals of the global grid: points 0..n */
    int first;  /* first owned point */
    int m;      /* owned points: local 1..m; 0 and m + 1 are ghosts */
    double h2;  /* h^2 */
    double *u;  /* current iterate (the correction on coarse levels) */
    double *tmp;/* Jacobi's second array */
    double *f;  /* right-hand side */
    double *r;  /* residual */
} Level;

/* Everything a rank needs; no global variables. */
typedef struct {
    int rank, size, left, right;
    int nlevels;
    Level *lv;  /* lv[0] finest */
} Multigrid;

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "multigrid: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static double *zeros(int count)
{
    double *x = xmalloc((size_t)count * sizeof(double));
    for (int i = 0; i < count; i++)
        x[i] = 0.0;
    return x;
}

/* Right-hand side at global point g of the finest grid: [-1, 1). */
static double rhs(int g)
{
    unsigned long long x = (unsigned long long)(g + 1) * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return (double)(x >> 11) * 0x1.0p-52 - 1.0;
}

/* Fill the ghost cells of x (one level's array) from the neighbours. */
static void exchange(const Multigrid *mg, const Level *L, double *x)
{
    MPI_Sendrecv(&x[L->m], 1, MPI_DOUBLE, mg->right, TAG_TO_RIGHT, &x[0], 1,
                 MPI_DOUBLE, mg->left, TAG_TO_RIGHT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x[1], 1, MPI_DOUBLE, mg->left, TAG_TO_LEFT, &x[L->m + 1], 1,
                 MPI_DOUBLE, mg->right, TAG_TO_LEFT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

/* One damped Jacobi sweep of u into tmp (ghosts of u current), then swap. */
static void jacobi_sweep(Level *L, double omega)
{
    for (int i = 1; i <= L->m; i++) {
        if (L->first + i - 1 == 0) {          /* boundary point u_0 = 0 */
            L->tmp[i] = L->u[i];
            continue;
        }
        double jac = 0.5 * (L->h2 * L->f[i] + L->u[i - 1] + L->u[i + 1]);
        L->tmp[i] = (1.0 - omega) * L->u[i] + omega * jac;
    }
    double *t = L->u;
    L->u = L->tmp;
    L->tmp = t;
}

/* r = f - A u on the owned points; returns the local max |r|. */
static double residual(const Multigrid *mg, Level *L)
{
    double norm = 0.0;
    exchange(mg, L, L->u);
    for (int i = 1; i <= L->m; i++) {
        if (L->first + i - 1 == 0) {
            L->r[i] = 0.0;
            continue;
        }
        L->r[i] = L->f[i] -
                  (2.0 * L->u[i] - L->u[i - 1] - L->u[i + 1]) / L->h2;
        double a = L->r[i] < 0.0 ? -L->r[i] : L->r[i];
        if (a > norm)
            norm = a;
    }
    return norm;
}

/* Coarse right-hand side: full weighting of the fine residual; u_c = 0. */
static void restrict_residual(const Multigrid *mg, Level *fine, Level *coarse)
{
    exchange(mg, fine, fine->r);
    for (int jc = 1; jc <= coarse->m; jc++) {
        int gc = coarse->first + jc - 1;
        int i = 2 * gc - fine->first + 1;     /* fine local index of 2 * gc */
        coarse->f[jc] = gc == 0 ? 0.0
                                : 0.25 * (fine->r[i - 1] + 2.0 * fine->r[i] +
                                          fine->r[i + 1]);
    }
    for (int jc = 0; jc <= coarse->m + 1; jc++)
        coarse->u[jc] = coarse->tmp[jc] = 0.0;
}

/* u_fine += linear interpolation of the coarse correction. */
static void prolong_add(const Multigrid *mg, Level *coarse, Level *fine)
{
    exchange(mg, coarse, coarse->u);
    for (int i = 1; i <= fine->m; i++) {
        int g = fine->first + i - 1;
        if (g == 0)
            continue;
        int jc = g / 2 - coarse->first + 1;   /* coarse local index of g/2 */
        double e = (g % 2 == 0) ? coarse->u[jc]
                                : 0.5 * (coarse->u[jc] + coarse->u[jc + 1]);
        fine->u[i] += e;
    }
}

static void vcycle(Multigrid *mg, int level)
{
    Level *L = &mg->lv[level];
    int coarsest = level == mg->nlevels - 1;
    int sweeps = coarsest ? L->n * L->n : NU1;
    double omega = coarsest ? 1.0 : 2.0 / 3.0;

    /* State shared by the regions of the loops: declared before them. */
    MPI_Request req[4];
    double sendbuf[2] = {0.0, 0.0};  /* [0] to the left, [1] to the right */
    double recvbuf[2] = {0.0, 0.0};  /* [0] from the left, [1] from the right */

    /* Pre-smoothing; on the coarsest level, the approximate solve. */
    for (int s = 0; s < sweeps; s++) {
        {
            MPI_Irecv(&recvbuf[0], 1, MPI_DOUBLE, mg->left, TAG_TO_RIGHT,
                      MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(&recvbuf[1], 1, MPI_DOUBLE, mg->right, TAG_TO_LEFT,
                      MPI_COMM_WORLD, &req[1]);
        }
        {
            sendbuf[0] = L->u[1];
            sendbuf[1] = L->u[L->m];
            MPI_Isend(&sendbuf[0], 1, MPI_DOUBLE, mg->left, TAG_TO_LEFT,
                      MPI_COMM_WORLD, &req[2]);
            MPI_Isend(&sendbuf[1], 1, MPI_DOUBLE, mg->right, TAG_TO_RIGHT,
                      MPI_COMM_WORLD, &req[3]);
        }
        {
            MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
            if (mg->left != MPI_PROC_NULL)
                L->u[0] = recvbuf[0];
            if (mg->right != MPI_PROC_NULL)
                L->u[L->m + 1] = recvbuf[1];
            jacobi_sweep(L, omega);
        }
    }

    if (coarsest)
        return;

    /* Coarse-grid correction (outside any superblock: plain MPI). */
    residual(mg, L);
    restrict_residual(mg, L, &mg->lv[level + 1]);
    vcycle(mg, level + 1);
    prolong_add(mg, &mg->lv[level + 1], L);

    /* Post-smoothing. */
    for (int s = 0; s < NU2; s++) {
        {
            MPI_Irecv(&recvbuf[0], 1, MPI_DOUBLE, mg->left, TAG_TO_RIGHT,
                      MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(&recvbuf[1], 1, MPI_DOUBLE, mg->right, TAG_TO_LEFT,
                      MPI_COMM_WORLD, &req[1]);
        }
        {
            sendbuf[0] = L->u[1];
            sendbuf[1] = L->u[L->m];
            MPI_Isend(&sendbuf[0], 1, MPI_DOUBLE, mg->left, TAG_TO_LEFT,
                      MPI_COMM_WORLD, &req[2]);
            MPI_Isend(&sendbuf[1], 1, MPI_DOUBLE, mg->right, TAG_TO_RIGHT,
                      MPI_COMM_WORLD, &req[3]);
        }
        {
            MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
            if (mg->left != MPI_PROC_NULL)
                L->u[0] = recvbuf[0];
            if (mg->right != MPI_PROC_NULL)
                L->u[L->m + 1] = recvbuf[1];
            jacobi_sweep(L, 2.0 / 3.0);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size, n = 1024, cycles = 10, nlevels = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        cycles = atoi(argv[2]);
    if (argc > 3)
        nlevels = atoi(argv[3]);
    else
        for (int k = n; k >= 8 && k % 2 == 0; k /= 2)
            nlevels++;                      /* coarsest grid: 8+ intervals */
    long coarsening = nlevels >= 1 && nlevels <= 30 ? 1L << (nlevels - 1) : 0;
    if (n < 2 || cycles < 1 || coarsening == 0 ||
        n % ((long)size * coarsening) != 0) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [N [CYCLES >= 1 [LEVELS >= 1]]]: ranks * "
                    "2^(LEVELS-1) must divide N (here %d ranks, N %d, "
                    "LEVELS %d)\n",
                    argv[0], size, n, nlevels);
        MPI_Finalize();
        return 1;
    }

    Multigrid mg;
    mg.rank = rank;
    mg.size = size;
    mg.left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    mg.right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    mg.nlevels = nlevels;
    mg.lv = xmalloc((size_t)nlevels * sizeof(Level));
    for (int l = 0; l < nlevels; l++) {
        Level *L = &mg.lv[l];
        L->n = n >> l;
        L->m = L->n / size;
        L->first = rank * L->m;
        L->h2 = 1.0 / ((double)L->n * (double)L->n);
        L->u = zeros(L->m + 2);
        L->tmp = zeros(L->m + 2);
        L->f = zeros(L->m + 2);
        L->r = zeros(L->m + 2);
    }
    for (int i = 1; i <= mg.lv[0].m; i++) {
        int g = mg.lv[0].first + i - 1;
        mg.lv[0].f[i] = g == 0 ? 0.0 : rhs(g);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    double *history = xmalloc((size_t)(cycles + 1) * sizeof(double));
    for (int c = 0; c <= cycles; c++) {
        if (c > 0)
            vcycle(&mg, 0);
        double local = residual(&mg, &mg.lv[0]);
        MPI_Allreduce(&local, &history[c], 1, MPI_DOUBLE, MPI_MAX,
                      MPI_COMM_WORLD);
        if (rank == 0)
            printf("cycle %d residual %.17g\n", c, history[c]);
    }

    double elapsed = MPI_Wtime() - t0;

    /* Rounding errors in A u are about eps * |u| / h^2: below this floor
     * (with a wide margin) the residual need not decrease any more. */
    double floor = 0.1 * DBL_EPSILON * (double)n * (double)n;
    int ok = 1;
    for (int c = 1; c <= cycles; c++)
        if (history[c - 1] > floor && !(history[c] < history[c - 1]))
            ok = 0;
    double target = 1e-6 * history[0] > floor ? 1e-6 * history[0] : floor;
    if (cycles >= 8 && !(history[cycles] <= target))
        ok = 0;
    if (rank == 0) {
        printf("ranks %d N %d levels %d cycles %d time %.6f s\n", size, n,
               nlevels, cycles, elapsed);
        if (ok)
            printf("multigrid: OK\n");
        else
            printf("multigrid: FAILED (the residual did not decrease as "
                   "expected)\n");
        fflush(stdout);
    }

    for (int l = 0; l < nlevels; l++) {
        free(mg.lv[l].u);
        free(mg.lv[l].tmp);
        free(mg.lv[l].f);
        free(mg.lv[l].r);
    }
    free(mg.lv);
    free(history);
    MPI_Finalize();
    return ok ? 0 : 1;
}
