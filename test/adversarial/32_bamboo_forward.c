/* bamboo olap pipeline: receive block forwards received data (send after receive in the same block), blocking calls */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long token = 0, fwd = 0, mine = rank * 7 + 1, acc = 0;
  MPI_Status st;
  int i;
#pragma bamboo olap
  for (i = 0; i < 5; i++) {
#pragma bamboo receive
    {
      if (rank > 0) MPI_Recv(&token, 1, MPI_LONG, rank - 1, i, MPI_COMM_WORLD, &st);
      else token = i * 100;
      fwd = token + mine;
      if (rank < size - 1) MPI_Send(&fwd, 1, MPI_LONG, rank + 1, i, MPI_COMM_WORLD);
    }
    acc = acc * 3 + token % 1000;
    mine = (mine + i) % 97;
  }
  printf("rank %d acc %ld token %ld\n", rank, acc, token);
  MPI_Finalize();
  return 0;
}
