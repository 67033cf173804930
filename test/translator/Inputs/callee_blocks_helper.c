// Called from the regions of callee_blocks_two_files.c: a receive block and
// a send block outside any superblock, and a wait.
#include <mpi.h>

void post_ring(double *got, int left, int tag, MPI_Request *r) {
#pragma tucana receive
  MPI_Irecv(got, 1, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, r);
}

void send_ring(const double *mine, int right, int tag, MPI_Request *r) {
#pragma tucana send
  MPI_Isend(mine, 1, MPI_DOUBLE, right, tag, MPI_COMM_WORLD, r);
}

void finish_ring(MPI_Request *r) { MPI_Waitall(2, r, MPI_STATUSES_IGNORE); }
