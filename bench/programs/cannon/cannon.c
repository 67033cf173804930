/*
 * cannon -- benchmark program: Cannon's matrix multiplication C = A * B on a
 * Q x Q grid of blocks, the local block products by OpenBLAS (cblas_dgemm).
 * This file is the *Original* variant: plain MPI, each step's shift of the A
 * and B blocks completes (MPI_Waitall) before the step's block products.
 *
 * Usage: cannon [N [REPEATS [Q]]]       (defaults: N = 256, REPEATS = 4,
 *                                        Q as below)
 * Link with -lopenblas.
 *
 * A and B are N x N matrices with small integer entries given by closed
 * formulas (see a_entry, b_entry).  The program computes C = REPEATS * A * B
 * by running Cannon's algorithm REPEATS times over (REPEATS * Q steps of one
 * loop): every entry and every partial sum is an integer far below 2^53, so
 * the result is exact in double precision whatever order the BLAS adds in,
 * and the same for every rank count and every Q.
 *
 * Decomposition: the matrices are cut into a Q x Q grid of B x B blocks
 * (B = N / Q, Q must divide N); block g = row * Q + col holds A(row, col),
 * B(row, col) and C(row, col), and its neighbours are computed by hand (the
 * grid is periodic).  Rank r of P owns the blocks g in [r Q^2 / P,
 * (r + 1) Q^2 / P): a contiguous range in row-major order, the way
 * tucana-run gives consecutive subranks to one process.  Q defaults to the
 * smallest Q with Q^2 a multiple of P: sqrt(P) when P is a perfect square
 * (one block per rank, the textbook Cannon), 2 for P = 2 (a block row per
 * rank), 4 for P = 8 (half a block row per rank).  So the native program
 * runs one rank per core on any core count, and P processes of it exchange
 * the same data between processes as tucana-run -np P over the Q^2 subranks
 * of a square layout.
 *
 * Each block starts at its skewed place (block row i of A shifted left by i,
 * block column j of B up by j), generated there from the formulas before
 * the timed loop.  Each step of the loop receives the next blocks of every
 * owned block into second buffers (MPI_Irecv from the owner of the block on
 * its right / below), sends the current ones (MPI_Isend to the owner of the
 * block on its left / above; a neighbour block on the same rank gets them by
 * memcpy), waits, multiplies and accumulates the current blocks
 * (cblas_dgemm) and swaps the buffer pointers.  After Q steps the blocks are
 * back at their skewed places, so the next Q steps repeat the
 * multiplication.
 *
 * OpenBLAS runs single-threaded (openblas_set_num_threads(1)): the ranks, or
 * Tucana's workers, use the cores.
 *
 * Variants (bit-identical results):
 *   cannon.c            Original: this file.
 *   cannon_overlap.c    Overlap: multiply (in tiles, polling MPI between
 *                       them) while the next blocks travel, then wait.
 *   cannon_annotated.c  Tucana: this file plus a Toucan-form superblock.
 *
 * Self-check: every rank compares entries of its C blocks with REPEATS times
 * the dot product of a row of A and a column of B computed directly from
 * the formulas -- every entry when N <= 512, otherwise 2048 entries spread
 * over each block -- and rank 0 compares the sum of C with its closed form
 * REPEATS * sum_k (sum_i A(i,k)) * (sum_j B(k,j)).
 *
 * Output (rank 0):
 *   cannon ranks <P> grid <Q>x<Q> blocks per rank <min>..<max> N <N>
 *          repeats <R>
 *   time <seconds of the step loop, the maximum over the ranks>
 *   checksum <sum of w(i,j) * C(i,j), w = 1 + i % 13 + 13 (j % 7)>
 *   sum <sum of all entries of C>
 *   trace <sum of the diagonal of C>
 *   check <entries compared>
 *   cannon: OK                 (or a FAILED line, and exit status 1)
 * All of them but check are exact integers, the same for any number of
 * ranks and any Q.
 */
#include "cannon_common.h"

/* c += a * bm for b x b row-major blocks (nothing in a bound build:
 * common/comm_only.h). */
static void block_multiply_add(int b, const double *a, const double *bm,
                               double *c)
{
    if (COMM_ONLY)
        return;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, b, b, b, 1.0, a, b,
                bm, b, 1.0, c, b);
}

int main(int argc, char **argv)
{
    int rank, size, n = 256, repeats = 4, q = 0;

    openblas_set_num_threads(1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (!read_args(argc, argv, rank, size, &n, &repeats, &q)) {
        MPI_Finalize();
        return 1;
    }

    Blocks bl = make_blocks(rank, size, n, q);
    int b = bl.b, bb = bl.bb, nb = bl.nb, first = bl.first, mine = bl.mine;
    size_t bytes = bl.bytes;
    double **a = bl.a, **anext = bl.anext, **bm = bl.bm, **bnext = bl.bnext;
    double **c = bl.c;
    MPI_Request *req = bl.req; /* state shared by the parts of the loop */
    int steps = repeats * q;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int step = 0; step < steps; step++) {
        {
            for (int k = 0; k < mine; k++) {
                int g = first + k, row = g / q, col = g % q;
                int right = owner(row * q + (col + 1) % q, size, nb);
                int down = owner(((row + 1) % q) * q + col, size, nb);
                if (right != rank)
                    MPI_Irecv(anext[k], bb, MPI_DOUBLE, right, TAG_A + 2 * g,
                              MPI_COMM_WORLD, &req[4 * k]);
                if (down != rank)
                    MPI_Irecv(bnext[k], bb, MPI_DOUBLE, down, TAG_B + 2 * g,
                              MPI_COMM_WORLD, &req[4 * k + 1]);
            }
        }
        {
            for (int k = 0; k < mine; k++) {
                int row = (first + k) / q, col = (first + k) % q;
                int left = row * q + (col + q - 1) % q;
                int up = ((row + q - 1) % q) * q + col;
                if (owner(left, size, nb) != rank)
                    MPI_Isend(a[k], bb, MPI_DOUBLE, owner(left, size, nb),
                              TAG_A + 2 * left, MPI_COMM_WORLD, &req[4 * k + 2]);
                else
                    memcpy(anext[left - first], a[k], bytes);
                if (owner(up, size, nb) != rank)
                    MPI_Isend(bm[k], bb, MPI_DOUBLE, owner(up, size, nb),
                              TAG_B + 2 * up, MPI_COMM_WORLD, &req[4 * k + 3]);
                else
                    memcpy(bnext[up - first], bm[k], bytes);
            }
        }
        {
            MPI_Waitall(4 * mine, req, MPI_STATUSES_IGNORE);
            for (int k = 0; k < mine; k++) {
                block_multiply_add(b, a[k], bm[k], c[k]);
                double *tmp = a[k];
                a[k] = anext[k];
                anext[k] = tmp;
                tmp = bm[k];
                bm[k] = bnext[k];
                bnext[k] = tmp;
            }
        }
    }

    double elapsed = MPI_Wtime() - t0;
    int ok = report_results(rank, size, n, q, repeats, first, mine, c, elapsed);

    free_blocks(&bl);
    MPI_Finalize();
    return ok ? 0 : 1;
}
