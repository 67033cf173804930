/* bamboo receive block with MPI_Sendrecv_replace (rotating a buffer around the ring) and a send block */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long rot[3] = {rank, rank * 10, rank * 100}, acc = 0, note = 0, got = 0;
  MPI_Request sq;
  int i;
#pragma bamboo olap
  for (i = 0; i < 6; i++) {
#pragma bamboo send
    { note = acc % 1000; MPI_Isend(&note, 1, MPI_LONG, l, 50 + i, MPI_COMM_WORLD, &sq); }
#pragma bamboo receive
    {
      MPI_Sendrecv_replace(rot, 3, MPI_LONG, r, i, l, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&got, 1, MPI_LONG, r, 50 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    acc = acc * 3 + rot[0] + rot[1] * 2 + rot[2] * 3 + got;
    acc %= 1000003;
  }
  printf("rank %d acc %ld\n", rank, acc);
  MPI_Finalize();
  return 0;
}
