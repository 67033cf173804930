/* A privatized global passed to a stringizing macro: the translator rewrites the macro argument, so #x prints
   "TUCANA_PRIV(counter)" instead of "counter". Expected: "counter = 1"; got: "TUCANA_PRIV(counter) = 1". */
#include <mpi.h>
#include <stdio.h>
#define SHOW(x) printf(#x " = %d\n", (x))
int counter;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  counter++;
  SHOW(counter);
  MPI_Finalize();
  return 0;
}
