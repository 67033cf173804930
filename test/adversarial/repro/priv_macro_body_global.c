/* A global named through token pasting in a macro (g_##n) is not privatized at that use, and there is no warning:
   the translator rewrites macro bodies that spell the name (BUMP below is fine) but not a name formed by ##.
   Expected (mpirun -np 4): every rank prints "counter 1 g_other 1".
   Got (tucana-run -np 1 --vf 4 and -np 2 --vf 2): "counter 1 g_other 0" at every rank: PASTE(other)++ increments
   the shared image copy, while the printf reads the subrank's own (privatized) copy. */
#include <mpi.h>
#include <stdio.h>
#define BUMP() (counter++)
#define PASTE(n) g_##n
int counter;
int g_other;
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  BUMP();          /* macro body names 'counter' */
  PASTE(other)++;  /* token pasting forms 'g_other' */
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d counter %d g_other %d\n", rank, counter, g_other);
  MPI_Finalize();
  return 0;
}
