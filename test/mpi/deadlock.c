/*
 * deadlock -- a deliberate deadlock, for the runtime's deadlock detector.
 *
 * Every rank calls MPI_Recv(source = (rank+1) % size, tag = 42,
 * MPI_COMM_WORLD) and nobody ever sends, so every rank blocks forever (with
 * one rank it receives from itself).  This is correct-looking but erroneous
 * MPI: under a plain MPI launcher the program simply hangs.
 *
 * Under the Tucana runtime it is registered with "--deadlock-timeout 2" and
 * is expected to be killed by the deadlock detector, which must report each
 * blocked subrank (a line containing MPI_Recv with the peer, tag=42 and the
 * communicator) and make the launcher exit non-zero.  The test passes only
 * if that happens (see expect_fail.sh).
 *
 * It never prints "OK".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, buf = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Recv(&buf, 1, MPI_INT, (rank + 1) % size, 42, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);

    /* not reached */
    fprintf(stderr, "FAIL deadlock: rank %d: expected to block forever got message %d\n",
            rank, buf);
    MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Finalize();
    return 1;
}
