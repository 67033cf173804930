/*
 * cannon2d -- Cannon's matrix multiplication C = A * B on a Q x Q process
 * grid, a plain MPI program.
 *
 * Usage: cannon2d [N]                   (default: N = 240)
 *
 * The number of ranks must be a perfect square Q * Q, and Q must divide N.
 * A and B are N x N matrices with small integer entries given by closed
 * formulas (see a_entry, b_entry), so every product and every partial sum is
 * an integer far below 2^53 and exact in double precision, whatever the order
 * of the additions.
 *
 * Decomposition: rank = row * Q + col holds the B x B blocks (B = N / Q)
 * A(row, col), B(row, col) and C(row, col).  Neighbours are computed by hand
 * (the grid is periodic).  The initial skew shifts block row i of A left by i
 * and block column j of B up by j (MPI_Sendrecv_replace).  Then Q steps each
 * multiply-accumulate the local blocks and shift A left by one and B up by
 * one: the next blocks are received into second buffers (MPI_Irecv), the
 * current blocks are copied into send buffers and sent (MPI_Isend), and after
 * MPI_Waitall and the multiplication the buffer pointers are swapped.  (The
 * copy keeps the block being sent apart from the buffers that the pointer
 * swap recycles, as the send buffers of Fig. 1 of the Toucan paper do, so
 * the loop stays correct once a translator removes the waits.)  The last
 * step's shift brings the blocks back to their skewed places; it is kept so
 * that every iteration of the loop has the same shape.
 *
 * cannon2d_annotated.c is this same program with Tucana's pragmas added (and
 * nothing else changed); a plain compiler ignores them.
 *
 * Self-check: every rank compares each entry of its C block with the dot
 * product of a row of A and a column of B computed directly from the
 * formulas; the number of wrong entries is summed with MPI_Allreduce.
 * Rank 0 also checks the checksum against its closed form
 * sum_k (sum_i A(i,k)) * (sum_j B(k,j)).
 * The checksum (sum of all entries of C, an exact integer) and the trace are
 * the same for any number of ranks.
 *
 * Output (rank 0):
 *   checksum <sum of C>
 *   trace <sum of the diagonal of C>
 *   wrong <entries that differ from the direct computation>
 *   ranks <P> (<Q> x <Q>) N <N> time <seconds>
 *   cannon2d: OK               (or a FAILED line, and exit status 1)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_A 1
#define TAG_B 2
#define TAG_SKEW_A 3
#define TAG_SKEW_B 4

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
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "cannon2d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* c += a * b for b x b row-major blocks: a plain triple loop. */
static void block_multiply_add(int b, const double *a, const double *bm,
                               double *c)
{
    for (int i = 0; i < b; i++)
        for (int k = 0; k < b; k++) {
            double aik = a[(size_t)i * b + k];
            const double *brow = &bm[(size_t)k * b];
            double *crow = &c[(size_t)i * b];
            for (int j = 0; j < b; j++)
                crow[j] += aik * brow[j];
        }
}

int main(int argc, char **argv)
{
    int rank, size, n = 240;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int q = 0;
    while ((q + 1) * (q + 1) <= size)
        q++;
    if (argc > 1)
        n = atoi(argv[1]);
    if (q * q != size) {
        if (rank == 0)
            fprintf(stderr,
                    "cannon2d: the number of ranks (%d) must be a perfect "
                    "square (1, 4, 9, 16, ...)\n",
                    size);
        MPI_Finalize();
        return 1;
    }
    if (n < 1 || n % q != 0) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [N]: N must be a positive multiple of %d "
                    "(the side of the %d x %d process grid)\n",
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
    double *a = xmalloc(bytes), *anext = xmalloc(bytes), *asend = xmalloc(bytes);
    double *bm = xmalloc(bytes), *bnext = xmalloc(bytes), *bsend = xmalloc(bytes);
    double *c = xmalloc(bytes);
    for (int i = 0; i < b; i++)
        for (int j = 0; j < b; j++) {
            a[(size_t)i * b + j] = a_entry(row * b + i, col * b + j);
            bm[(size_t)i * b + j] = b_entry(row * b + i, col * b + j);
            c[(size_t)i * b + j] = 0.0;
        }

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    /* Initial skew: A(row, col) goes row places left, B(row, col) col up. */
    {
        int adst = row * q + (col + q - row) % q;
        int asrc = row * q + (col + row) % q;
        int bdst = ((row + q - col) % q) * q + col;
        int bsrc = ((row + col) % q) * q + col;
        MPI_Sendrecv_replace(a, bb, MPI_DOUBLE, adst, TAG_SKEW_A, asrc,
                             TAG_SKEW_A, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(bm, bb, MPI_DOUBLE, bdst, TAG_SKEW_B, bsrc,
                             TAG_SKEW_B, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    /* State shared by the regions of the loop: declared before it. */
    MPI_Request req[4];

#pragma tucana superblock
    for (int step = 0; step < q; step++) {
#pragma tucana receive
        {
            MPI_Irecv(anext, bb, MPI_DOUBLE, right, TAG_A, MPI_COMM_WORLD,
                      &req[0]);
            MPI_Irecv(bnext, bb, MPI_DOUBLE, down, TAG_B, MPI_COMM_WORLD,
                      &req[1]);
        }
#pragma tucana send
        {
            memcpy(asend, a, bytes);
            memcpy(bsend, bm, bytes);
            MPI_Isend(asend, bb, MPI_DOUBLE, left, TAG_A, MPI_COMM_WORLD,
                      &req[2]);
            MPI_Isend(bsend, bb, MPI_DOUBLE, up, TAG_B, MPI_COMM_WORLD,
                      &req[3]);
        }
#pragma tucana compute
        {
            MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
            block_multiply_add(b, a, bm, c);
            double *tmp = a;
            a = anext;
            anext = tmp;
            tmp = bm;
            bm = bnext;
            bnext = tmp;
        }
    }

    double elapsed = MPI_Wtime() - t0;

    /* Check every entry against the direct dot product; sum C. */
    double wrong = 0.0, sum = 0.0, trace = 0.0;
    for (int i = 0; i < b; i++)
        for (int j = 0; j < b; j++) {
            int gi = row * b + i, gj = col * b + j;
            double expect = 0.0;
            for (int k = 0; k < n; k++)
                expect += a_entry(gi, k) * b_entry(k, gj);
            double got = c[(size_t)i * b + j];
            if (got != expect)
                wrong += 1.0;
            sum += got;
            if (gi == gj)
                trace += got;
        }
    /* All partial sums are exact integers, so the order does not matter. */
    double local[3] = {wrong, sum, trace}, global[3];
    MPI_Allreduce(local, global, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int ok = global[0] == 0.0;

    /* Closed form of the checksum: sum over k of (column k of A summed)
     * times (row k of B summed), computed on rank 0 without the blocks. */
    double expect_sum = 0.0;
    if (rank == 0)
        for (int k = 0; k < n; k++) {
            double acol = 0.0, brow = 0.0;
            for (int i = 0; i < n; i++) {
                acol += a_entry(i, k);
                brow += b_entry(k, i);
            }
            expect_sum += acol * brow;
        }
    if (rank == 0 && expect_sum != global[1])
        ok = 0;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("checksum %.17g\n", global[1]);
        printf("trace %.17g\n", global[2]);
        printf("wrong %.0f\n", global[0]);
        printf("ranks %d (%d x %d) N %d time %.6f s\n", size, q, q, n,
               elapsed);
        if (ok)
            printf("cannon2d: OK\n");
        else
            printf("cannon2d: FAILED (%.0f entries of C are wrong, checksum "
                   "%.17g expected)\n",
                   global[0], expect_sum);
        fflush(stdout);
    }

    free(a);
    free(anext);
    free(asend);
    free(bm);
    free(bnext);
    free(bsend);
    free(c);
    MPI_Finalize();
    return ok ? 0 : 1;
}
