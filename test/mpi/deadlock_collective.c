/*
 * deadlock_collective -- a deadlock the runtime must report, not hang on:
 * every rank but 1 starts an MPI_Ibarrier on the communicator of its
 * parity (MPI_Comm_split) and waits for it; rank 1 never does, so the odd
 * ranks' barrier cannot complete. Under tucana-run the deadlock report must
 * name "MPI_Wait, on MPI_Ibarrier(comm=communicator N)". (Under plain
 * mpirun this program hangs: it is a test of the deadlock report only.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm parity;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
    if (rank != 1) {
        MPI_Request r;
        MPI_Ibarrier(parity, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&parity);
    MPI_Finalize();
    return 0;
}
