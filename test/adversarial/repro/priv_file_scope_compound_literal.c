/* A file-scope compound literal (static storage, C99 6.5.2.5) reached through a global pointer is not privatized,
   and there is no warning: the pointer 'scratch' is per subrank, but every copy points to the one unnamed array.
   Expected (mpirun -np 4): rank k prints its own array with only element k%3 changed, e.g.
     rank 0 scratch 11 20 30 / rank 1 scratch 10 22 30 / rank 2 scratch 10 20 33 / rank 3 scratch 14 20 30
   Got (tucana-run -np 1 --vf 4): every rank prints "scratch 15 22 33" (all subranks wrote one array). */
#include <mpi.h>
#include <stdio.h>
int *scratch = (int[]){10, 20, 30};
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scratch[rank % 3] += rank + 1;
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d scratch %d %d %d\n", rank, scratch[0], scratch[1], scratch[2]);
  MPI_Finalize();
  return 0;
}
