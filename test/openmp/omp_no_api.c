/* A program that uses OpenMP through its pragmas only, with no omp_*
 * call: its GOMP_* calls bind to the runtime's forwarders, so the linker
 * must not drop the OpenMP runtime (--as-needed) that they forward to; the
 * first parallel region then aborted. Each subrank's team sums its own
 * privatized array. */
#include <mpi.h>
#include <stdio.h>

#ifndef VARIANT
#define VARIANT
#endif
#define STR2(x) #x
#define STR(x) STR2(x)
#define TESTNAME "omp_no_api" STR(VARIANT)

static double values[1000];

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 1000; ++i) values[i] = rank;
    /* (Not a worksharing loop: GCC's calls omp_get_thread_num itself.) */
    /* One reduction variable (GCC's code for two calls GOMP_atomic_start):
     * each thread adds 10^9 and its sum, far below 10^9. */
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        long mine = 1000000000L;
        for (int i = 0; i < 1000; ++i) mine += (long)values[i] + 1;
        sum += mine;
    }
    long threads = sum / 1000000000L;
    sum = (sum % 1000000000L) / threads;
    long all = 0, want = 0;
    MPI_Allreduce(&sum, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) want += 1000L * (r + 1);
    if (all != want) {
        fprintf(stderr, "FAIL %s: rank %d: sum %ld, not %ld\n", TESTNAME, rank, all, want);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) printf("OK %s\n", TESTNAME);
    MPI_Finalize();
    return 0;
}
