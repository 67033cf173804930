/*
 * tpod_common.h -- what every variant of tpod (tpod.c, tpod_hybrid.c)
 * shares, outside main(): the domain and its decomposition, the sweep, the
 * initial grid, the process grid and the checksum.  The problem, the output
 * and the self-check are described in tpod.c's header comment.  Static
 * functions, types and constants only: no global or static variable (the
 * subranks of a Tucana process would share it), and no pragma (the
 * annotations stay in the variant files).
 */
#ifndef TPOD_COMMON_H
#define TPOD_COMMON_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HALO 1 /* ghost layers on each side: the stencil's reach */
#define SERIAL_CHECK_LIMIT (1LL << 26)

/* The part of the global grid that one rank holds. */
typedef struct {
    int n[3];     /* global grid size along x, y, z */
    int first[3]; /* first owned global index along x, y, z */
    int count[3]; /* owned points along x, y, z */
    size_t sy;    /* memory distance between neighbours in y */
    size_t sz;    /* ... and in z (x neighbours are adjacent) */
    size_t cells; /* points stored, ghosts included */
} Domain;

/* Items [*first, *first + *count) of n split in p blocks belong to block k. */
static void block_range(int n, int p, int k, int *first, int *count)
{
    int base = n / p, extra = n % p;
    *count = base + (k < extra ? 1 : 0);
    *first = k * base + (k < extra ? k : extra);
}

/* The subdomain of rank r in a p[0] x p[1] x p[2] process grid. */
static Domain make_domain(const int n[3], const int p[3], int r)
{
    Domain b;
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

static size_t idx(const Domain *b, int x, int y, int z)
{
    return (size_t)z * b->sz + (size_t)y * b->sy + (size_t)x;
}

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "tpod: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Is local index i along axis a on the fixed boundary of the global grid? */
static int on_boundary(const Domain *b, int a, int i)
{
    int g = b->first[a] + i - HALO;
    return g < HALO || g >= b->n[a] - HALO;
}

/*
 * One Jacobi sweep over the local box [lo, hi) of owned points of u into
 * unew (the ghosts that the box reaches must be current); returns the
 * largest change.
 */
static double sweep_box(const double *u, double *unew, const Domain *b,
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
static double sweep(const double *u, double *unew, const Domain *b)
{
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = HALO;
        hi[a] = HALO + b->count[a];
    }
    return sweep_box(u, unew, b, lo, hi);
}

/* A block with ghosts: 1.0 on the bottom face (global z = 0), else 0.0. */
static double *new_grid(const Domain *b)
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

#endif /* TPOD_COMMON_H */
