/* Two _Pragma("tucana task") for two statements produced by one macro expansion are reported as
   "error: statement has two task pragmas ('task' and 'task')" (both pragmas are attached to the first statement,
   presumably because both have the macro's expansion location). Legal code; plain mpicc runs it. */
#include <mpi.h>
#include <stdio.h>
#define TWO_TASKS(p) _Pragma("tucana task") p[0] += 1; _Pragma("tucana task") p[1] += 10;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long c[2] = {0, 0};
  long *p = c;
  TWO_TASKS(p)
#pragma tucana taskwait
  printf("c %ld %ld\n", c[0], c[1]);
  MPI_Finalize();
  return 0;
}
