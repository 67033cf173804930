/*
 * cannon -- benchmark program: Cannon's matrix multiplication C = A * B on a
 * Q x Q grid of blocks, the local block products by OpenBLAS (cblas_dgemm).
 * This file is the *explicit graph* variant of the ablation that follows the
 * 2017 MATE slides' roadmap (issue 15): the loop body split into named
 * regions with explicit dependencies (#pragma tucana region(NAME)
 * depends(...)).
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
 * Decomposition (as in cannon.c): the matrices are cut into a Q x Q grid of
 * B x B blocks (B = N / Q, Q must divide N); block g = row * Q + col holds
 * A(row, col), B(row, col) and C(row, col), and its neighbours are computed
 * by hand (the grid is periodic).  Rank r of P owns the blocks g in
 * [r Q^2 / P, (r + 1) Q^2 / P), a contiguous range in row-major order.  Q
 * defaults to the smallest Q with Q^2 a multiple of P: sqrt(P) when P is a
 * perfect square (one block per rank), 2 for P = 2, 4 for P = 8.
 *
 * Each block starts at its skewed place (block row i of A shifted left by i,
 * block column j of B up by j), generated there from the formulas before
 * the timed loop.  Each step of the loop receives the next blocks of every
 * owned block into second buffers (MPI_Irecv from the owner of the block on
 * its right / below), sends the current ones (MPI_Isend to the owner of the
 * block on its left / above; a neighbour block on the same rank gets them by
 * memcpy), multiplies and accumulates the current blocks (cblas_dgemm),
 * waits and swaps the buffer pointers.  After Q steps the blocks are back at
 * their skewed places, so the next Q steps repeat the multiplication.
 *
 * The graph.  The blocks are contiguous and travel straight from and into
 * the matrices, so there is nothing to pack or unpack: the slides' five
 * regions (receive, pack, send, unpack, compute) shrink to receive, send and
 * compute.  What the explicit graph can still split is the compute: the
 * products of a step need only the current blocks, not the ones in flight,
 * while the pointer swaps need the new blocks and the finished sends.  So
 * the compute is two regions, four in all (x* is region x of the previous
 * step):
 *   receive  depends(rotate*)      the MPI_Irecv of every owned block whose
 *                                  neighbour is on another rank, into the
 *                                  second buffers the last rotate freed
 *   send     depends(rotate*)      the MPI_Isend of the current blocks, or
 *                                  the memcpy into the second buffer of a
 *                                  neighbour block on the same rank (one
 *                                  that no receive of the step writes)
 *   multiply depends(rotate*)      the products of the current blocks; they
 *                                  read what the sends and copies read,
 *                                  which MPI allows, write only C, and wait
 *                                  for no message
 *   rotate   depends(receive, send, multiply)
 *                                  waits for all requests (at once under
 *                                  Tucana), swaps the buffers
 * Each block's requests have fixed slots (req[4k .. 4k+3], MPI_REQUEST_NULL
 * for the copies), so receive and send share no counter and may run in
 * either order.  In the Toucan form (cannon_annotated.c) compute(i) depends
 * on receive(i), so the products of step i wait for the blocks of step
 * i + 1 and only other subranks can overlap the transfer; here multiply(i)
 * runs while they travel, at any VF.  The receives and sends are not split
 * per matrix (A and B): rotate needs both transfers and multiply neither, so
 * regions per matrix would add dependencies and no freedom.  Without
 * translation the pragmas are ignored and the four blocks run in order: a
 * plain MPI program (the products between the posts and the wait, as in
 * cannon_overlap.c without the polling) with the Original's result.
 *
 * OpenBLAS runs single-threaded (openblas_set_num_threads(1)): the ranks, or
 * Tucana's workers, use the cores.
 *
 * Variants (bit-identical results):
 *   cannon.c            Original: plain MPI, each step's shift completes
 *                       before the step's block products.
 *   cannon_overlap.c    Overlap: multiply (in tiles, polling MPI between
 *                       them) while the next blocks travel, then wait.
 *   cannon_annotated.c  Tucana: the Original plus a Toucan-form superblock.
 *   cannon_explicit.c   this file: an explicit graph of four regions.
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

/* c += a * bm for b x b row-major blocks. */
static void block_multiply_add(int b, const double *a, const double *bm,
                               double *c)
{
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

#pragma tucana superblock
    for (int step = 0; step < steps; step++) {
#pragma tucana region(receive) depends(rotate*)
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
#pragma tucana region(send) depends(rotate*)
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
#pragma tucana region(multiply) depends(rotate*)
        {
            for (int k = 0; k < mine; k++)
                block_multiply_add(b, a[k], bm[k], c[k]);
        }
#pragma tucana region(rotate) depends(receive, send, multiply)
        {
            MPI_Waitall(4 * mine, req, MPI_STATUSES_IGNORE);
            for (int k = 0; k < mine; k++) {
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
