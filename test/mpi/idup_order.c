/*
 * idup_order -- MPI_Comm_idup and a blocking communicator creation made in
 * different orders at different ranks:
 *   even ranks: MPI_Comm_idup(a), then MPI_Comm_dup(b), then MPI_Wait;
 *   odd ranks:  MPI_Comm_dup(b), then MPI_Comm_idup(a), then MPI_Wait.
 * MPI allows it; Tucana agrees on one context pair at a time per subrank,
 * in the order of its calls (docs/runtime.md, "Communicators and groups"),
 * so here the even ranks' MPI_Comm_dup waits for their idup's agreement,
 * which waits for the odd ranks, which wait in MPI_Comm_dup(b). This is a
 * known limitation; what the test asserts is that the job does not hang
 * silently: the deadlock detector reports it (exit status 2), because the
 * waiting turn parks its fiber instead of spinning. With one rank there is
 * no second order, and the program prints OK.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm a, b, da, db;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    if (rank % 2 == 0) {
        MPI_Comm_idup(a, &da, &r);
        MPI_Comm_dup(b, &db);
    } else {
        MPI_Comm_dup(b, &db);
        MPI_Comm_idup(a, &da, &r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Comm_free(&da);
    MPI_Comm_free(&db);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    if (rank == 0)
        printf("OK idup_order %d\n", size);
    MPI_Finalize();
    return 0;
}
