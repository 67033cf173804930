/*
 * cannon_common.h -- what every variant of cannon (cannon.c,
 * cannon_annotated.c, cannon_explicit.c, cannon_overlap.c) shares, outside
 * main(): the entries of A and B, the default process grid, the block
 * ownership, xmalloc, the arguments, a rank's blocks (make_blocks) and
 * everything after the timed loop (report_results).  The problem, the output and the self-check are
 * described in cannon.c's header comment.  Static functions, types and
 * constants only: no global or static variable (the subranks of a Tucana
 * process would share it), and no pragma (the annotations stay in the
 * variant files).
 */
#ifndef CANNON_COMMON_H
#define CANNON_COMMON_H

#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/comm_only.h"

#define TAG_A 0 /* tag = TAG_A or TAG_B + 2 * (the receiving block) */
#define TAG_B 1
#define MAX_Q 100            /* keeps the tags below 32767, MPI's minimum */
#define FULL_CHECK_LIMIT 512 /* check every entry up to this N */
#define SAMPLES 2048         /* entries checked per block above it */

/* Entries of A and B: integers in [-5, 5] and [-6, 6]. */
static double a_entry(int i, int j)
{
    return (double)((3 * i + 5 * j + 1) % 11 - 5);
}

static double b_entry(int i, int j)
{
    return (double)((7 * i + 2 * j + 3) % 13 - 6);
}

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "cannon: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* The smallest Q with Q * Q a multiple of (and not below) size. */
static int default_grid(int size)
{
    int q = 1;
    while (q * q < size || (q * q) % size != 0)
        q++;
    return q;
}

/* First block of rank r (r = size: the number of blocks nb). */
static int first_block(int r, int size, int nb)
{
    return (int)((long long)r * nb / size);
}

/* The rank that owns block g: the largest r with first_block(r) <= g. */
static int owner(int g, int size, int nb)
{
    return (int)(((long long)(g + 1) * size + nb - 1) / nb) - 1;
}

/*
 * Reads [N [REPEATS [Q]]] into *n, *repeats, *q (which hold the defaults; Q
 * defaults to default_grid(size)).  Returns 1, or 0 after rank 0 printed the
 * usage (the same on every rank: the caller finalizes and exits 1).
 */
static int read_args(int argc, char **argv, int rank, int size, int *n,
                     int *repeats, int *q)
{
    if (argc > 1)
        *n = atoi(argv[1]);
    if (argc > 2)
        *repeats = atoi(argv[2]);
    if (argc > 3)
        *q = atoi(argv[3]);
    if (argc <= 3)
        *q = default_grid(size);
    if (*q < 1 || *q > MAX_Q || *q * *q < size || *n < 1 || *n % *q != 0 ||
        *repeats < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [N [REPEATS >= 1 [Q]]]: the block grid is Q x Q "
                    "(here %d x %d), with Q * Q >= %d ranks, Q <= %d, and N a "
                    "positive multiple of Q\n",
                    argv[0], *q, *q, size, MAX_Q);
        return 0;
    }
    return 1;
}

/*
 * A rank's share of the q x q grid of b x b blocks (b = n / q): blocks first
 * .. first + mine - 1 (row-major in the grid), with A and B already skewed
 * (block (row, col) holds A(row, col + row) and B(row + col, col)), C zero,
 * the buffers of the next A and B blocks, and the requests of one shift:
 * block k uses req[4k .. 4k+3] (receive A, receive B, send A, send B), the
 * transfers within the rank leaving theirs MPI_REQUEST_NULL.
 */
typedef struct {
    int b, bb, nb;      /* block side, values per block, blocks in the grid */
    int first, mine;    /* this rank's blocks */
    size_t bytes;       /* of a block */
    double **a, **anext, **bm, **bnext, **c; /* [mine] blocks */
    MPI_Request *req;   /* [4 * mine] (+1, never empty) */
} Blocks;

static Blocks make_blocks(int rank, int size, int n, int q)
{
    Blocks bl;
    bl.b = n / q;
    bl.bb = bl.b * bl.b;
    bl.nb = q * q;
    bl.first = first_block(rank, size, bl.nb);
    bl.mine = first_block(rank + 1, size, bl.nb) - bl.first;
    bl.bytes = (size_t)bl.bb * sizeof(double);
    const int b = bl.b, mine = bl.mine;
    bl.a = xmalloc((size_t)mine * sizeof(double *));
    bl.anext = xmalloc((size_t)mine * sizeof(double *));
    bl.bm = xmalloc((size_t)mine * sizeof(double *));
    bl.bnext = xmalloc((size_t)mine * sizeof(double *));
    bl.c = xmalloc((size_t)mine * sizeof(double *));
    for (int k = 0; k < mine; k++) {
        int row = (bl.first + k) / q, col = (bl.first + k) % q;
        int acol = (col + row) % q, brow = (row + col) % q; /* the skew */
        bl.a[k] = xmalloc(bl.bytes);
        bl.anext[k] = xmalloc(bl.bytes);
        bl.bm[k] = xmalloc(bl.bytes);
        bl.bnext[k] = xmalloc(bl.bytes);
        bl.c[k] = xmalloc(bl.bytes);
        for (int i = 0; i < b; i++)
            for (int j = 0; j < b; j++) {
                bl.a[k][(size_t)i * b + j] = a_entry(row * b + i, acol * b + j);
                bl.bm[k][(size_t)i * b + j] = b_entry(brow * b + i, col * b + j);
            }
    }
    bl.req = xmalloc((size_t)(4 * mine + 1) * sizeof(MPI_Request));
    for (int k = 0; k < 4 * mine; k++)
        bl.req[k] = MPI_REQUEST_NULL;
    return bl;
}

/* Frees what make_blocks allocated (the pointers in a, anext, bm, bnext
 * swapped among themselves by the steps are all freed). */
static void free_blocks(Blocks *bl)
{
    for (int k = 0; k < bl->mine; k++) {
        free(bl->a[k]);
        free(bl->anext[k]);
        free(bl->bm[k]);
        free(bl->bnext[k]);
        free(bl->c[k]);
    }
    free(bl->a);
    free(bl->anext);
    free(bl->bm);
    free(bl->bnext);
    free(bl->c);
    free(bl->req);
}

/*
 * Everything after the timed loop, on every rank: the maximum of elapsed
 * (this rank's seconds in the loop), the sums of C (c[k]: the rank's blocks
 * first .. first + mine - 1 of the q x q grid, N = n), the check of its
 * entries against direct dot products and of the checksum against its
 * closed form, and rank 0's report.  Returns 1 on every rank when the check
 * passed, else 0.
 */
static int report_results(int rank, int size, int n, int q, int repeats,
                          int first, int mine, double *const *c,
                          double elapsed)
{
    const int b = n / q; /* block size */
    double time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Sums of C; check entries against the direct dot product. */
    double wrong = 0.0, sum = 0.0, wsum = 0.0, trace = 0.0, checked = 0.0;
    long long entries = (long long)b * b;
    int full = n <= FULL_CHECK_LIMIT || entries <= SAMPLES;
    long long nsamples = COMM_ONLY ? 0 : full ? entries : SAMPLES;
    for (int k = 0; k < mine; k++) {
        int row = (first + k) / q, col = (first + k) % q;
        for (int i = 0; i < b; i++)
            for (int j = 0; j < b; j++) {
                int gi = row * b + i, gj = col * b + j;
                double got = c[k][(size_t)i * b + j];
                sum += got;
                wsum += (double)(1 + gi % 13 + 13 * (gj % 7)) * got;
                if (gi == gj)
                    trace += got;
            }
        for (long long s = 0; s < nsamples; s++) {
            long long e = full ? s : (s * 1000003LL) % entries;
            int i = (int)(e / b), j = (int)(e % b);
            int gi = row * b + i, gj = col * b + j;
            double expect = 0.0;
            for (int kk = 0; kk < n; kk++)
                expect += a_entry(gi, kk) * b_entry(kk, gj);
            if (c[k][(size_t)i * b + j] != (double)repeats * expect)
                wrong += 1.0;
            checked += 1.0;
        }
    }
    /* All partial sums are exact integers, so the order does not matter. */
    double local[5] = {wrong, sum, trace, checked, wsum}, global[5];
    MPI_Allreduce(local, global, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int ok = global[0] == 0.0;
    int mm[2] = {-mine, mine}, mmr[2];
    MPI_Allreduce(mm, mmr, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    /* Closed form of the checksum, computed on rank 0 without the blocks. */
    double expect_sum = 0.0;
    if (rank == 0) {
        for (int k = 0; k < n; k++) {
            double acol = 0.0, brow = 0.0;
            for (int i = 0; i < n; i++) {
                acol += a_entry(i, k);
                brow += b_entry(k, i);
            }
            expect_sum += acol * brow;
        }
        expect_sum *= (double)repeats;
        if (expect_sum != global[1] && !COMM_ONLY)
            ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("cannon ranks %d grid %dx%d blocks per rank %d..%d N %d "
               "repeats %d\n",
               size, q, q, -mmr[0], mmr[1], n, repeats);
        printf("time %.6f\n", time_max);
        printf("checksum %.17g\n", global[4]);
        printf("sum %.17g\n", global[1]);
        printf("trace %.17g\n", global[2]);
        if (COMM_ONLY) { /* nothing was computed: no check, no verdict */
            printf("%s\n", COMM_ONLY_LINE);
        } else {
            printf("check %.0f entries against direct dot products, checksum "
                   "against its closed form\n",
                   global[3]);
            if (ok)
                printf("cannon: OK\n");
            else
                printf("cannon: FAILED (%.0f entries of C are wrong; "
                       "checksum %.17g expected)\n",
                       global[0], expect_sum);
        }
        fflush(stdout);
    }
    return ok;
}

#endif /* CANNON_COMMON_H */
