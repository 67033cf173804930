/*
 * ft -- benchmark program: the structure of NAS FT (a 3D FFT PDE solver
 * whose time is the all-to-all transpose), in plain C99 and MPI with a
 * radix-2 complex FFT of its own.  This file is the *Original* variant (the
 * only one written by hand): each time step's MPI_Alltoall completes before
 * the step's last FFT, as in NAS FT.
 *
 * Usage: ft [NX NY NZ [ITERATIONS]]      (defaults: 64 64 64 6)
 *        NX, NY, NZ powers of two; NX and NZ multiples of the rank count.
 *
 * The problem (NAS FT's, in its own arithmetic): u0 is a complex NX x NY x
 * NZ grid in frequency space, entries pseudo-random in [-1, 1) from a hash
 * of the global index (the same for every rank count).  Time step t = 1 ..
 * ITERATIONS evolves it, u1(k) = u0(k) * exp(-4 pi^2 alpha t |k|^2) (alpha =
 * 1e-6, k the signed wave numbers), transforms u1 back to physical space,
 * u2 = the unnormalized inverse 3D DFT of u1, and stores a checksum of u2
 * for step t.
 *
 * Decomposition: slabs.  In frequency space rank r owns the z planes [r
 * NZ/P, (r+1) NZ/P) of u0 and u1, stored [z][y][x] (x fastest); after the
 * transpose it owns the x range [r NX/P, (r+1) NX/P) of u2, stored [x][z][y]
 * (y fastest).  One time step (the loop body; its MPI_Alltoall is a
 * top-level statement of it):
 *   evolve(u0, u1, t)          reads u0, writes u1
 *   fft_xy(u1)                 1D FFTs along x and y of every local plane,
 *                              in place in u1
 *   pack(u1, sendbuf)          block d of sendbuf = the x range of rank d,
 *                              [z][y][x] within the block
 *   MPI_Alltoall(sendbuf -> recvbuf)   the transpose
 *   unpack_fft_z(recvbuf, u2)  block s of recvbuf = the z planes of rank s;
 *                              into u2, then 1D FFTs along z
 *   checksum(u2, t, sums)      writes sums[2 (t-1)], sums[2 (t-1) + 1]
 * The parts before the transpose write only u1 and sendbuf (and read u0 and
 * the tables); the parts after it read recvbuf and write only u2 and the
 * step's entries of sums: with sendbuf and recvbuf replicated, Comm(t) is
 * independent of the parts of steps t-1 and t+1 (the seed paper's Fig. 5).
 * sendbuf and recvbuf are heap pointers, complex values interleaved (re,
 * im) in doubles; the complex arithmetic is written out, so every value is
 * the same IEEE expression at every rank count and with every compiler
 * (no C99 complex, whose multiplication calls differ).
 *
 * Every element of u2 goes through the same operations whatever the rank
 * count (the 1D FFTs of a line do not depend on who does them), so u2 is
 * bit-identical for every P, and so is the checksum.
 *
 * Self-check after the loop, on the last step: (1) the direct DFT, sum over
 * all k of u1(k) exp(+2 pi i k.x / N), at 8 points of the grid (each rank
 * sums over its planes; MPI_Allreduce) against u2 there, relative to
 * sum |u1|; (2) Parseval: sum |u2|^2 = NX NY NZ sum |u1|^2.  Both tolerate
 * 1e-9 (rounding, summed in rank-count-dependent order).
 *
 * Output (rank 0):
 *   ft ranks <P> grid <NX>x<NY>x<NZ> iterations <I> bytes per transpose <B>
 *   iter <t> <re> <im>         the checksum of step t (see below)
 *   time <seconds of the time-step loop, the maximum over the ranks>
 *   checksum <sum over the steps of re + im>
 *   check <what was compared, largest relative error>
 *   ft: OK                     (or a FAILED line, and exit status 1)
 * A step's checksum is sum w(x,y,z) u2(x,y,z) over the whole grid, w = 1 +
 * (7x + 13y + 3z) % 17, real and imaginary parts separately, each value
 * truncated to units of 2^-24 and summed as 64-bit integers (exact, the same
 * in any order); printed in those units.  All but time and check are the
 * same for any number of ranks.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define ALPHA 1.0e-6
#define SAMPLES 8        /* points of the direct-DFT check */
#define TOLERANCE 1.0e-9 /* of both checks, relative */
#define FIXED_SCALE 0x1p24

/* The grid, its decomposition and the read-only tables: set before the
 * time loop, never written in it. */
struct grid {
    int nx, ny, nz;       /* global sizes */
    int nzl, z0;          /* frequency space: local z planes, the first */
    int nxl, x0;          /* physical space (after the transpose): x range */
    int size;             /* ranks */
    int iterations;
    const double *wx, *wy, *wz; /* exp(+2 pi i j / n), j < n/2, interleaved */
    const double *ex, *ey, *ez; /* evolution factors: [(t-1) n + i] =
                                   exp(-4 pi^2 alpha t k(i)^2) */
};

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "ft: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static int is_power_of_two(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* splitmix64: the pseudo-random entries, from the global index alone. */
static unsigned long long mix64(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A value in [-1, 1) from a hash. */
static double uniform(unsigned long long h)
{
    return (double)(h >> 11) * 0x1p-52 - 1.0;
}

/* The n/2 roots exp(+2 pi i j / n) (the inverse transform's). */
static double *roots(int n)
{
    double *w = xmalloc((size_t)(n / 2 + 1) * 2 * sizeof(double));
    for (int j = 0; j < n / 2; j++) {
        double a = 2.0 * M_PI * (double)j / (double)n;
        w[2 * j] = cos(a);
        w[2 * j + 1] = sin(a);
    }
    return w;
}

/* exp(+2 pi i j / n) for any j >= 0, from the table of the first half. */
static void root_at(const double *w, int n, long long j, double *re,
                    double *im)
{
    j %= n;
    if (j < n / 2) {
        *re = w[2 * j];
        *im = w[2 * j + 1];
    } else {
        *re = -w[2 * (j - n / 2)];
        *im = -w[2 * (j - n / 2) + 1];
    }
}

/* The evolution factors of one axis for every step. */
static double *evolution_table(int n, int iterations)
{
    double *e = xmalloc((size_t)n * (size_t)iterations * sizeof(double));
    for (int t = 1; t <= iterations; t++)
        for (int i = 0; i < n; i++) {
            double k = (double)(i < n / 2 ? i : i - n);
            e[(size_t)(t - 1) * n + i] =
                exp(-4.0 * M_PI * M_PI * ALPHA * (double)t * k * k);
        }
    return e;
}

/*
 * In-place radix-2 FFTs (decimation in time, w = the roots of n) along the
 * slow axis of an n x m array of complex values: element (j, c) at
 * a[2 (j m + c)].  m = 1 transforms one contiguous line; m > 1 transforms
 * the m columns together, c innermost.  Every output is the same sequence
 * of operations for every m.
 */
static void fft_columns(double *a, int n, int m, const double *w)
{
    size_t row = 2 * (size_t)m;
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double *p = a + (size_t)i * row, *q = a + (size_t)j * row;
            for (size_t c = 0; c < row; c++) {
                double t = p[c];
                p[c] = q[c];
                q[c] = t;
            }
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        int half = len / 2, step = n / len;
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < half; k++) {
                double wr = w[2 * k * step], wi = w[2 * k * step + 1];
                double *p = a + (size_t)(i + k) * row;
                double *q = a + (size_t)(i + k + half) * row;
                for (int c = 0; c < m; c++) {
                    double qr = q[2 * c], qi = q[2 * c + 1];
                    double vr = qr * wr - qi * wi, vi = qr * wi + qi * wr;
                    double ur = p[2 * c], ui = p[2 * c + 1];
                    p[2 * c] = ur + vr;
                    p[2 * c + 1] = ui + vi;
                    q[2 * c] = ur - vr;
                    q[2 * c + 1] = ui - vi;
                }
            }
    }
}

/* u1 = u0 * exp(-4 pi^2 alpha t |k|^2) on the local planes.  Reads u0 and
 * the tables, writes u1. */
static void evolve(const double *u0, double *u1, int t, const struct grid *g)
{
    const double *ex = g->ex + (size_t)(t - 1) * g->nx;
    const double *ey = g->ey + (size_t)(t - 1) * g->ny;
    const double *ez = g->ez + (size_t)(t - 1) * g->nz;
    for (int z = 0; z < g->nzl; z++)
        for (int y = 0; y < g->ny; y++) {
            double fzy = ez[g->z0 + z] * ey[y];
            size_t base = 2 * ((size_t)z * g->ny + y) * g->nx;
            for (int x = 0; x < g->nx; x++) {
                double f = fzy * ex[x];
                u1[base + 2 * x] = u0[base + 2 * x] * f;
                u1[base + 2 * x + 1] = u0[base + 2 * x + 1] * f;
            }
        }
}

/* The 1D FFTs along x and y of every local plane of u1, in place. */
static void fft_xy(double *u1, const struct grid *g)
{
    size_t plane = 2 * (size_t)g->nx * g->ny;
    for (int z = 0; z < g->nzl; z++) {
        double *p = u1 + (size_t)z * plane;
        for (int y = 0; y < g->ny; y++)
            fft_columns(p + 2 * (size_t)y * g->nx, g->nx, 1, g->wx);
        fft_columns(p, g->ny, g->nx, g->wy);
    }
}

/* Block d of sendbuf (nzl * ny * nxl values): rank d's x range of every
 * local plane, [z][y][x] within the block.  Reads u1, writes sendbuf. */
static void pack(const double *u1, double *sendbuf, const struct grid *g)
{
    size_t block = 2 * (size_t)g->nzl * g->ny * g->nxl;
    for (int d = 0; d < g->size; d++) {
        double *out = sendbuf + (size_t)d * block;
        for (int z = 0; z < g->nzl; z++)
            for (int y = 0; y < g->ny; y++) {
                const double *in =
                    u1 + 2 * (((size_t)z * g->ny + y) * g->nx +
                              (size_t)d * g->nxl);
                memcpy(out, in, 2 * (size_t)g->nxl * sizeof(double));
                out += 2 * (size_t)g->nxl;
            }
    }
}

/* Block s of recvbuf holds rank s's z planes of the local x range; u2 is
 * [x][z][y]: unpack, then the 1D FFTs along z.  Reads recvbuf, writes u2. */
static void unpack_fft_z(const double *recvbuf, double *u2,
                         const struct grid *g)
{
    size_t block = 2 * (size_t)g->nzl * g->ny * g->nxl;
    for (int s = 0; s < g->size; s++) {
        const double *in = recvbuf + (size_t)s * block;
        for (int z = 0; z < g->nzl; z++)
            for (int y = 0; y < g->ny; y++)
                for (int x = 0; x < g->nxl; x++) {
                    size_t at = 2 * (((size_t)x * g->nz + (size_t)s * g->nzl +
                                      z) * g->ny + y);
                    u2[at] = in[0];
                    u2[at + 1] = in[1];
                    in += 2;
                }
    }
    size_t xplane = 2 * (size_t)g->nz * g->ny;
    for (int x = 0; x < g->nxl; x++)
        fft_columns(u2 + (size_t)x * xplane, g->nz, g->ny, g->wz);
}

/* v in units of 2^-24, truncated toward zero (clamped far out): integer
 * sums of these are exact, hence the same in any order. */
static unsigned long long fixed_point(double v)
{
    if (!(v < 0x1p38))
        v = v != v ? 0.0 : 0x1p38;
    if (v < -0x1p38)
        v = -0x1p38;
    return (unsigned long long)(long long)(v * FIXED_SCALE);
}

/* Step t's local checksum into sums[2 (t-1)] (real) and sums[2 (t-1) + 1]
 * (imaginary).  Reads u2, writes only those two entries. */
static void checksum(const double *u2, int t, unsigned long long *sums,
                     const struct grid *g)
{
    unsigned long long re = 0, im = 0;
    for (int x = 0; x < g->nxl; x++)
        for (int z = 0; z < g->nz; z++)
            for (int y = 0; y < g->ny; y++) {
                size_t at = 2 * (((size_t)x * g->nz + z) * g->ny + y);
                unsigned long long w =
                    1 + (unsigned long long)(7 * (g->x0 + x) + 13 * y +
                                             3 * z) % 17;
                re += w * fixed_point(u2[at]);
                im += w * fixed_point(u2[at + 1]);
            }
    sums[2 * (t - 1)] = re;
    sums[2 * (t - 1) + 1] = im;
}

int main(int argc, char **argv)
{
    int rank, size;
    int nx = 64, ny = 64, nz = 64, iterations = 6;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 3) {
        nx = atoi(argv[1]);
        ny = atoi(argv[2]);
        nz = atoi(argv[3]);
    }
    if (argc > 4)
        iterations = atoi(argv[4]);
    /* the per-destination count of MPI_Alltoall is an int of doubles */
    long long block_doubles =
        2LL * (nz / (size > 0 ? size : 1)) * ny * (nx / (size > 0 ? size : 1));
    if (argc == 2 || argc == 3 || !is_power_of_two(nx) ||
        !is_power_of_two(ny) || !is_power_of_two(nz) || nx < 2 || ny < 2 ||
        nz < 2 || nx % size != 0 || nz % size != 0 || iterations < 1 ||
        block_doubles > 0x7fffffffLL) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [NX NY NZ [ITERATIONS >= 1]]: NX, NY, NZ powers "
                    "of two >= 2, NX and NZ multiples of the %d ranks\n",
                    argv[0], size);
        MPI_Finalize();
        return 1;
    }

    struct grid g;
    g.nx = nx;
    g.ny = ny;
    g.nz = nz;
    g.size = size;
    g.iterations = iterations;
    g.nzl = nz / size;
    g.z0 = rank * g.nzl;
    g.nxl = nx / size;
    g.x0 = rank * g.nxl;
    double *wx = roots(nx), *wy = roots(ny), *wz = roots(nz);
    double *ex = evolution_table(nx, iterations);
    double *ey = evolution_table(ny, iterations);
    double *ez = evolution_table(nz, iterations);
    g.wx = wx;
    g.wy = wy;
    g.wz = wz;
    g.ex = ex;
    g.ey = ey;
    g.ez = ez;

    size_t local = (size_t)g.nzl * ny * nx; /* complex values per rank */
    size_t bytes = 2 * local * sizeof(double);
    double *u0 = xmalloc(bytes);
    double *u1 = xmalloc(bytes);
    double *u2 = xmalloc(bytes);
    double *sendbuf = xmalloc(bytes);
    double *recvbuf = xmalloc(bytes);
    unsigned long long *sums =
        xmalloc(2 * (size_t)iterations * sizeof(unsigned long long));
    for (int z = 0; z < g.nzl; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                unsigned long long gi =
                    ((unsigned long long)(g.z0 + z) * ny + y) * nx + x;
                size_t at = 2 * (((size_t)z * ny + y) * nx + x);
                u0[at] = uniform(mix64(2 * gi));
                u0[at + 1] = uniform(mix64(2 * gi + 1));
            }
    int block = (int)block_doubles;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int iter = 1; iter <= iterations; iter++) {
        evolve(u0, u1, iter, &g);
        fft_xy(u1, &g);
        pack(u1, sendbuf, &g);
        MPI_Alltoall(sendbuf, block, MPI_DOUBLE, recvbuf, block, MPI_DOUBLE,
                     MPI_COMM_WORLD);
        unpack_fft_z(recvbuf, u2, &g);
        checksum(u2, iter, sums, &g);
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    unsigned long long *total =
        xmalloc(2 * (size_t)iterations * sizeof(unsigned long long));
    MPI_Allreduce(sums, total, 2 * iterations, MPI_UNSIGNED_LONG_LONG,
                  MPI_SUM, MPI_COMM_WORLD);

    /* Self-check on the last step.  u1 was transformed in place: evolve
     * again.  dft: per sample the direct sum (re, im) over the local k;
     * fft: u2 at the sample on its owner, zero elsewhere. */
    evolve(u0, u1, iterations, &g);
    double part[4 * SAMPLES + 2], sum[4 * SAMPLES + 2];
    memset(part, 0, sizeof part);
    double abs1 = 0.0, energy1 = 0.0, energy2 = 0.0;
    for (size_t i = 0; i < local; i++) {
        double re = u1[2 * i], im = u1[2 * i + 1];
        abs1 += sqrt(re * re + im * im);
        energy1 += re * re + im * im;
        re = u2[2 * i];
        im = u2[2 * i + 1];
        energy2 += re * re + im * im;
    }
    for (int s = 0; s < SAMPLES; s++) {
        int px = (37 * s + 5) % nx, py = (11 * s + 3) % ny,
            pz = (23 * s + 1) % nz;
        double dre = 0.0, dim = 0.0;
        for (int z = 0; z < g.nzl; z++) {
            double zr, zi;
            root_at(wz, nz, (long long)(g.z0 + z) * pz, &zr, &zi);
            for (int y = 0; y < ny; y++) {
                double yr, yi;
                root_at(wy, ny, (long long)y * py, &yr, &yi);
                double zyr = zr * yr - zi * yi, zyi = zr * yi + zi * yr;
                for (int x = 0; x < nx; x++) {
                    double xr, xi;
                    root_at(wx, nx, (long long)x * px, &xr, &xi);
                    double er = zyr * xr - zyi * xi, ei = zyr * xi + zyi * xr;
                    size_t at = 2 * (((size_t)z * ny + y) * nx + x);
                    double ur = u1[at], ui = u1[at + 1];
                    dre += ur * er - ui * ei;
                    dim += ur * ei + ui * er;
                }
            }
        }
        part[4 * s] = dre;
        part[4 * s + 1] = dim;
        if (px >= g.x0 && px < g.x0 + g.nxl) {
            size_t at = 2 * (((size_t)(px - g.x0) * nz + pz) * ny + py);
            part[4 * s + 2] = u2[at];
            part[4 * s + 3] = u2[at + 1];
        }
    }
    part[4 * SAMPLES] = abs1;
    part[4 * SAMPLES + 1] = energy1;
    MPI_Allreduce(part, sum, 4 * SAMPLES + 2, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    double energy2_all = 0.0;
    MPI_Allreduce(&energy2, &energy2_all, 1, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    double scale = sum[4 * SAMPLES] > 0.0 ? sum[4 * SAMPLES] : 1.0;
    double dft_err = 0.0;
    for (int s = 0; s < SAMPLES; s++) {
        double er = sum[4 * s] - sum[4 * s + 2];
        double ei = sum[4 * s + 1] - sum[4 * s + 3];
        double e = sqrt(er * er + ei * ei) / scale;
        if (!(e <= dft_err))
            dft_err = e; /* a NaN sticks */
    }
    double n_all = (double)nx * (double)ny * (double)nz;
    double expect = n_all * sum[4 * SAMPLES + 1];
    double parseval_err =
        fabs(energy2_all - expect) / (expect > 0.0 ? expect : 1.0);
    int ok = dft_err <= TOLERANCE && parseval_err <= TOLERANCE;

    if (rank == 0) {
        unsigned long long all = 0;
        printf("ft ranks %d grid %dx%dx%d iterations %d bytes per transpose "
               "%.0f\n",
               size, nx, ny, nz, iterations,
               2.0 * n_all * sizeof(double) * (size - 1) / size);
        for (int t = 1; t <= iterations; t++) {
            printf("iter %d %lld %lld\n", t, (long long)total[2 * (t - 1)],
                   (long long)total[2 * (t - 1) + 1]);
            all += total[2 * (t - 1)] + total[2 * (t - 1) + 1];
        }
        printf("time %.6f\n", time_max);
        printf("checksum %lld\n", (long long)all);
        printf("check direct DFT at %d points (max error %.2e of sum |u1|) "
               "and Parseval (error %.2e) at step %d\n",
               SAMPLES, dft_err, parseval_err, iterations);
        if (ok)
            printf("ft: OK\n");
        else
            printf("ft: FAILED (direct DFT error %.3e, Parseval error %.3e, "
                   "tolerance %.0e)\n",
                   dft_err, parseval_err, TOLERANCE);
        fflush(stdout);
    }

    free(u0);
    free(u1);
    free(u2);
    free(sendbuf);
    free(recvbuf);
    free(sums);
    free(total);
    free(wx);
    free(wy);
    free(wz);
    free(ex);
    free(ey);
    free(ez);
    MPI_Finalize();
    return ok ? 0 : 1;
}
