/* nested tasks: a task spawns tasks and waits for them; inner tasks do MPI point-to-point with distinct tags */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long got[6] = {0};
  long *pg = got;
  for (int outer = 0; outer < 2; outer++) {
#pragma tucana task
    {
      for (int inner = 0; inner < 3; inner++) {
#pragma tucana task
        {
          int tag = outer * 3 + inner;
          long mine = rank * 100 + tag;
          MPI_Sendrecv(&mine, 1, MPI_LONG, r, tag, &pg[tag], 1, MPI_LONG, l, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      }
#pragma tucana taskwait
      pg[outer * 3] += pg[outer * 3 + 1] + pg[outer * 3 + 2];
    }
  }
#pragma tucana taskwait
  printf("rank %d got %ld %ld %ld %ld %ld %ld\n", rank, got[0], got[1], got[2], got[3], got[4], got[5]);
  MPI_Finalize();
  return 0;
}
