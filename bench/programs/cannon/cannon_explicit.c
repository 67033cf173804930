/*
 * cannon -- benchmark program: Cannon's matrix multiplication C = A * B on a
 * Q x Q process grid, the local block products by OpenBLAS (cblas_dgemm).
 * This file is the *explicit graph* variant of the ablation that follows the
 * 2017 MATE slides' roadmap (issue 15): the loop body split into named
 * regions with explicit dependencies (#pragma tucana region(NAME)
 * depends(...)).
 *
 * Usage: cannon [N [REPEATS]]           (defaults: N = 256, REPEATS = 4)
 * Link with -lopenblas.
 *
 * The number of ranks must be a perfect square Q * Q, and Q must divide N.
 * A and B are N x N matrices with small integer entries given by closed
 * formulas (see a_entry, b_entry).  The program computes C = REPEATS * A * B
 * by running Cannon's algorithm REPEATS times over (REPEATS * Q steps of one
 * loop): every entry and every partial sum is an integer far below 2^53, so
 * the result is exact in double precision whatever order the BLAS adds in.
 *
 * Decomposition: rank = row * Q + col holds the B x B blocks (B = N / Q)
 * A(row, col), B(row, col) and C(row, col); neighbours are computed by hand
 * (the grid is periodic).  The initial skew (before the timed loop) shifts
 * block row i of A left by i and block column j of B up by j
 * (MPI_Sendrecv with separate buffers).  Each step of the loop receives the
 * next blocks into second buffers (MPI_Irecv from the right / from below),
 * sends the current ones (MPI_Isend to the left / up), multiplies and
 * accumulates the current blocks (cblas_dgemm), waits and swaps the buffer
 * pointers.  After Q steps the blocks are back at their skewed places, so
 * the next Q steps repeat the multiplication.
 *
 * The graph.  The blocks are contiguous and travel straight from and into
 * the matrices, so there is nothing to pack or unpack: the slides' five
 * regions (receive, pack, send, unpack, compute) shrink to receive, send and
 * compute.  What the explicit graph can still split is the compute: the
 * product of a step needs only the current blocks, not the ones in flight,
 * while the pointer swap needs the new blocks and the finished sends.  So
 * the compute is two regions, four in all (x* is region x of the previous
 * step):
 *   receive  depends(rotate*)      the two MPI_Irecv, into the buffers the
 *                                  last rotate freed
 *   send     depends(rotate*)      the two MPI_Isend of the current blocks
 *   multiply depends(rotate*)      the product of the current blocks; it
 *                                  reads what the sends read, which MPI
 *                                  allows, and waits for no message
 *   rotate   depends(receive, send, multiply)
 *                                  waits for the four requests (at once
 *                                  under Tucana), swaps the buffers
 * In the Toucan form (cannon_annotated.c) compute(i) depends on receive(i),
 * so the product of step i waits for the blocks of step i + 1 and only
 * other subranks can overlap the transfer; here multiply(i) runs while they
 * travel, at any VF.  The receives and sends are not split per matrix (A
 * and B): rotate needs both transfers and multiply neither, so regions per
 * matrix would add dependencies and no freedom.  Without translation the
 * pragmas are ignored and the four blocks run in order: a plain MPI program
 * (the product between the posts and the wait, as in cannon_overlap.c
 * without the polling) with the Original's result.
 *
 * OpenBLAS runs single-threaded (openblas_set_num_threads(1)): the ranks, or
 * Tucana's workers, use the cores.
 *
 * Variants (bit-identical results):
 *   cannon.c            Original: plain MPI, each step's shift completes
 *                       before the step's block product.
 *   cannon_overlap.c    Overlap: multiply (in tiles, polling MPI between
 *                       them) while the next blocks travel, then wait.
 *   cannon_annotated.c  Tucana: the Original plus a Toucan-form superblock.
 *   cannon_explicit.c   this file: an explicit graph of four regions.
 *
 * Self-check: every rank compares entries of its C block with REPEATS times
 * the dot product of a row of A and a column of B computed directly from
 * the formulas -- every entry when N <= 512, otherwise 2048 entries spread
 * over the block -- and rank 0 compares the checksum with its closed form
 * REPEATS * sum_k (sum_i A(i,k)) * (sum_j B(k,j)).
 *
 * Output (rank 0):
 *   cannon ranks <P> grid <Q>x<Q> N <N> repeats <R>
 *   time <seconds of the step loop, the maximum over the ranks>
 *   checksum <sum of w(i,j) * C(i,j), w = 1 + i % 13 + 13 (j % 7)>
 *   sum <sum of all entries of C>
 *   trace <sum of the diagonal of C>
 *   check <entries compared>
 *   cannon: OK                 (or a FAILED line, and exit status 1)
 * All of them are exact integers, the same for any number of ranks.
 */
#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TAG_A 1
#define TAG_B 2
#define TAG_SKEW_A 3
#define TAG_SKEW_B 4
#define FULL_CHECK_LIMIT 512 /* check every entry up to this N */
#define SAMPLES 2048         /* entries checked per rank above it */

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

/* c += a * bm for b x b row-major blocks. */
static void block_multiply_add(int b, const double *a, const double *bm,
                               double *c)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, b, b, b, 1.0, a, b,
                bm, b, 1.0, c, b);
}

int main(int argc, char **argv)
{
    int rank, size, n = 256, repeats = 4;

    openblas_set_num_threads(1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int q = 0;
    while ((q + 1) * (q + 1) <= size)
        q++;
    if (argc > 1)
        n = atoi(argv[1]);
    if (argc > 2)
        repeats = atoi(argv[2]);
    if (q * q != size) {
        if (rank == 0)
            fprintf(stderr,
                    "cannon: the number of ranks (%d) must be a perfect "
                    "square (1, 4, 9, 16, ...)\n",
                    size);
        MPI_Finalize();
        return 1;
    }
    if (n < 1 || n % q != 0 || repeats < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [N [REPEATS >= 1]]: N must be a positive "
                    "multiple of %d (the side of the %d x %d process grid)\n",
                    argv[0], q, q, q);
        MPI_Finalize();
        return 1;
    }

    int b = n / q;
    int bb = b * b;
    int row = rank / q, col = rank % q;
    int left = row * q + (col + q - 1) % q;
    int right = row * q + (col + 1) % q;
    int up = ((row + q - 1) % q) * q + col;
    int down = ((row + 1) % q) * q + col;

    size_t bytes = (size_t)bb * sizeof(double);
    double *a = xmalloc(bytes), *anext = xmalloc(bytes);
    double *bm = xmalloc(bytes), *bnext = xmalloc(bytes);
    double *c = xmalloc(bytes);
    for (int i = 0; i < b; i++)
        for (int j = 0; j < b; j++) {
            anext[(size_t)i * b + j] = a_entry(row * b + i, col * b + j);
            bnext[(size_t)i * b + j] = b_entry(row * b + i, col * b + j);
        }

    /* Initial skew: A(row, col) goes row places left, B(row, col) col up. */
    {
        int adst = row * q + (col + q - row) % q;
        int asrc = row * q + (col + row) % q;
        int bdst = ((row + q - col) % q) * q + col;
        int bsrc = ((row + col) % q) * q + col;
        MPI_Sendrecv(anext, bb, MPI_DOUBLE, adst, TAG_SKEW_A, a, bb,
                     MPI_DOUBLE, asrc, TAG_SKEW_A, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(bnext, bb, MPI_DOUBLE, bdst, TAG_SKEW_B, bm, bb,
                     MPI_DOUBLE, bsrc, TAG_SKEW_B, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }

    /* State shared by the parts of the loop: declared before it. */
    MPI_Request req[4];
    int steps = repeats * q;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

#pragma tucana superblock
    for (int step = 0; step < steps; step++) {
#pragma tucana region(receive) depends(rotate*)
        {
            MPI_Irecv(anext, bb, MPI_DOUBLE, right, TAG_A, MPI_COMM_WORLD,
                      &req[0]);
            MPI_Irecv(bnext, bb, MPI_DOUBLE, down, TAG_B, MPI_COMM_WORLD,
                      &req[1]);
        }
#pragma tucana region(send) depends(rotate*)
        {
            MPI_Isend(a, bb, MPI_DOUBLE, left, TAG_A, MPI_COMM_WORLD, &req[2]);
            MPI_Isend(bm, bb, MPI_DOUBLE, up, TAG_B, MPI_COMM_WORLD, &req[3]);
        }
#pragma tucana region(multiply) depends(rotate*)
        block_multiply_add(b, a, bm, c);
#pragma tucana region(rotate) depends(receive, send, multiply)
        {
            MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
            double *tmp = a;
            a = anext;
            anext = tmp;
            tmp = bm;
            bm = bnext;
            bnext = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    /* Sums of C; check entries against the direct dot product. */
    double wrong = 0.0, sum = 0.0, wsum = 0.0, trace = 0.0, checked = 0.0;
    for (int i = 0; i < b; i++)
        for (int j = 0; j < b; j++) {
            int gi = row * b + i, gj = col * b + j;
            double got = c[(size_t)i * b + j];
            sum += got;
            wsum += (double)(1 + gi % 13 + 13 * (gj % 7)) * got;
            if (gi == gj)
                trace += got;
        }
    long long entries = (long long)b * b;
    int full = n <= FULL_CHECK_LIMIT || entries <= SAMPLES;
    long long nsamples = full ? entries : SAMPLES;
    for (long long s = 0; s < nsamples; s++) {
        long long e = full ? s : (s * 1000003LL) % entries;
        int i = (int)(e / b), j = (int)(e % b);
        int gi = row * b + i, gj = col * b + j;
        double expect = 0.0;
        for (int k = 0; k < n; k++)
            expect += a_entry(gi, k) * b_entry(k, gj);
        if (c[(size_t)i * b + j] != (double)repeats * expect)
            wrong += 1.0;
        checked += 1.0;
    }
    /* All partial sums are exact integers, so the order does not matter. */
    double local[5] = {wrong, sum, trace, checked, wsum}, global[5];
    MPI_Allreduce(local, global, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int ok = global[0] == 0.0;

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
        if (expect_sum != global[1])
            ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("cannon ranks %d grid %dx%d N %d repeats %d\n", size, q, q, n,
               repeats);
        printf("time %.6f\n", time_max);
        printf("checksum %.17g\n", global[4]);
        printf("sum %.17g\n", global[1]);
        printf("trace %.17g\n", global[2]);
        printf("check %.0f entries against direct dot products, checksum "
               "against its closed form\n",
               global[3]);
        if (ok)
            printf("cannon: OK\n");
        else
            printf("cannon: FAILED (%.0f entries of C are wrong; checksum "
                   "%.17g expected)\n",
                   global[0], expect_sum);
        fflush(stdout);
    }

    free(a);
    free(anext);
    free(bm);
    free(bnext);
    free(c);
    MPI_Finalize();
    return ok ? 0 : 1;
}
