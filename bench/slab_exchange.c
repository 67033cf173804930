/* slab_exchange: the communication of a 2-rank slab stencil alone, with no
 * computation: each step every rank sends one face of FACE doubles to the
 * other and receives one (MPI_Sendrecv). Its time is a lower bound for any
 * variant of the stencil that moves the same data over the same network,
 * however well it overlaps: with it, hidden % can reach at most
 * 100 * (T_original - T_exchange) / (T_original - T_nocomm) when the
 * exchange takes longer than NoComm (docs/benchmarks.md, "Tasks").
 *
 * usage: mpirun -np 2 slab_exchange [FACE [STEPS]]   (defaults 65536 100:
 * jacobi3d's 256 x 256 face and 100 iterations; stencil13 sends two layers:
 * 131072 40) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int face = argc > 1 ? atoi(argv[1]) : 65536, steps = argc > 2 ? atoi(argv[2]) : 100;
    if (size != 2 || face < 1 || steps < 1) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 slab_exchange [FACE >= 1 [STEPS >= 1]]\n");
        MPI_Finalize();
        return 1;
    }
    double *out = calloc((size_t)face, sizeof(double)), *in = calloc((size_t)face, sizeof(double));
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < steps; ++i)
        MPI_Sendrecv(out, face, MPI_DOUBLE, 1 - rank, 0, in, face, MPI_DOUBLE, 1 - rank, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0, slowest;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("slab_exchange: %d doubles each way, %d steps: %.4f s\n", face, steps, slowest);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
