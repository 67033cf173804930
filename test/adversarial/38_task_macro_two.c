/* a macro that spawns two tasks (two _Pragma("tucana task") on two statements of one expansion) */
#include <mpi.h>
#include <stdio.h>
#define TWO_TASKS(p) _Pragma("tucana task") p[0] += 1; _Pragma("tucana task") p[1] += 10;
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long c[2] = {rank, rank};
  long *p = c;
  for (int k = 0; k < 3; k++) {
    TWO_TASKS(p)
#pragma tucana taskwait
  }
  printf("rank %d c %ld %ld\n", rank, c[0], c[1]);
  MPI_Finalize();
  return 0;
}
