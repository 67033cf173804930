/*
 * same_bits -- floating-point reductions whose result depends on the order
 * of the additions, printed bit for bit so that runs can be compared.
 *
 * Every rank contributes 2 * size doubles (element k) mixing 1e16, 1.0,
 * -1e16, 3.14159 * rank * (k + 1) and 1 / (rank + 1 + k), so that
 * (a + b) + c != a + (b + c) for many of the partial sums.  Rank 0 prints, as hexadecimal bit patterns:
 *   bits allreduce <k> 0x...            MPI_Allreduce(MPI_SUM), element k
 *   bits reduce_root0 <k> 0x...         MPI_Reduce(MPI_SUM) to rank 0
 *   bits reduce_rootlast <k> 0x...      MPI_Reduce(MPI_SUM) to the last rank
 *   bits scan <r> <k> 0x...             MPI_Scan(MPI_SUM) result of rank r
 *   bits reduce_scatter_block <r> <k> 0x...  MPI_Reduce_scatter_block
 *                                       (2 elements per rank) of rank r
 * (results of other ranks are brought to rank 0 as MPI_UINT64_T bit
 * patterns).  MPI does not fix the reduction order, so these lines may
 * differ between MPI implementations and rank counts; same_bits.sh requires
 * them to be identical across Tucana layouts of the same rank count.
 *
 * The program itself checks that every rank got bit-identical MPI_Allreduce
 * results (an MPI_Allgather of the bit patterns compares them; MPI-3.1 sec.
 * 5.9.1 only advises implementors to make reductions reproducible, so this
 * is a Tucana requirement that common MPI libraries also meet) and that a
 * repeated MPI_Allreduce gives the same bits again.
 *
 * Works for any world size >= 1.  Prints "OK same_bits" on rank 0.
 */
#include <mpi.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "same_bits"
#include "mpitest.h"

/* compare two bit patterns; the message shows them in hex */
#define CHECK_BITS(expected, got, ...)                                              \
    do {                                                                            \
        uint64_t e_ = (expected), g_ = (got);                                       \
        if (e_ != g_) {                                                             \
            char c_[256], d_[400];                                                  \
            snprintf(c_, sizeof c_, __VA_ARGS__);                                   \
            snprintf(d_, sizeof d_, "%s (bits 0x%016" PRIx64 " vs 0x%016" PRIx64 ")", \
                     c_, e_, g_);                                                   \
            fail(d_, (long long)e_, (long long)g_, __LINE__);                       \
        }                                                                           \
    } while (0)

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double value(int r, int k)
{
    switch ((r + k) % 5) {
    case 0: return 1e16;
    case 1: return 1.0;
    case 2: return -1e16;
    case 3: return 3.14159 * r * (k + 1);
    default: return 1.0 / (r + 1 + k);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const int blk = 2, n = 2 * size;
    double *in = xmalloc(sizeof(double) * (size_t)n);
    double *ar = xmalloc(sizeof(double) * (size_t)n);
    double *ar2 = xmalloc(sizeof(double) * (size_t)n);
    double *r0 = xmalloc(sizeof(double) * (size_t)n);
    double *rl = xmalloc(sizeof(double) * (size_t)n);
    double *sc = xmalloc(sizeof(double) * (size_t)n);
    double rs[2];
    uint64_t *mine = xmalloc(sizeof(uint64_t) * (size_t)n);
    uint64_t *all = xmalloc(sizeof(uint64_t) * (size_t)n * (size_t)size);

    for (int k = 0; k < n; k++)
        in[k] = value(rank, k);

    MPI_Allreduce(in, ar, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(in, r0, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(in, rl, n, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD);
    MPI_Scan(in, sc, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(in, rs, blk, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(in, ar2, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    /* every rank has the same Allreduce bits, and the same again */
    for (int k = 0; k < n; k++) {
        mine[k] = bits(ar[k]);
        CHECK_BITS(mine[k], bits(ar2[k]), "repeated Allreduce element %d", k);
    }
    MPI_Allgather(mine, n, MPI_UINT64_T, all, n, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        for (int k = 0; k < n; k++)
            CHECK_BITS(mine[k], all[(size_t)r * (size_t)n + (size_t)k],
                       "Allreduce element %d: my bits vs rank %d's", k, r);

    /* Reduce at the last rank: bring it to rank 0 */
    uint64_t *rlb = xmalloc(sizeof(uint64_t) * (size_t)n);
    for (int k = 0; k < n; k++)
        rlb[k] = bits(rl[k]);
    if (size > 1) {
        if (rank == size - 1)
            MPI_Send(rlb, n, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
        else if (rank == 0)
            MPI_Recv(rlb, n, MPI_UINT64_T, size - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    /* Scan and Reduce_scatter_block results of every rank to rank 0 */
    uint64_t rsb[2] = {bits(rs[0]), bits(rs[1])};
    uint64_t *scan_all = xmalloc(sizeof(uint64_t) * (size_t)n * (size_t)size);
    uint64_t *rs_all = xmalloc(sizeof(uint64_t) * (size_t)blk * (size_t)size);
    for (int k = 0; k < n; k++)
        mine[k] = bits(sc[k]);
    MPI_Gather(mine, n, MPI_UINT64_T, scan_all, n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    MPI_Gather(rsb, blk, MPI_UINT64_T, rs_all, blk, MPI_UINT64_T, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        for (int k = 0; k < n; k++)
            printf("bits allreduce %d 0x%016" PRIx64 "\n", k, bits(ar[k]));
        for (int k = 0; k < n; k++)
            printf("bits reduce_root0 %d 0x%016" PRIx64 "\n", k, bits(r0[k]));
        for (int k = 0; k < n; k++)
            printf("bits reduce_rootlast %d 0x%016" PRIx64 "\n", k, rlb[k]);
        for (int r = 0; r < size; r++)
            for (int k = 0; k < n; k++)
                printf("bits scan %d %d 0x%016" PRIx64 "\n", r, k,
                       scan_all[(size_t)r * (size_t)n + (size_t)k]);
        for (int r = 0; r < size; r++)
            for (int k = 0; k < blk; k++)
                printf("bits reduce_scatter_block %d %d 0x%016" PRIx64 "\n", r, k,
                       rs_all[(size_t)r * (size_t)blk + (size_t)k]);
        fflush(stdout);
    }

    free(in);
    free(ar);
    free(ar2);
    free(r0);
    free(rl);
    free(sc);
    free(mine);
    free(all);
    free(rlb);
    free(scan_all);
    free(rs_all);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
