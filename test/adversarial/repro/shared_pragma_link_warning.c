/* A global the user marked '#pragma tucana shared' (docs/privatization.md) still draws the link-time warning
     tucanacc: warning: global variable 'table' (...) is shared by all subranks of a process: it is not privatized
     (compiled without tucanacc, with --privatize=no, or see the translator's warning about it)
   which names causes that do not apply (the translator gives no warning about it). Output is correct; noise only. */
#include <mpi.h>
#include <stdio.h>
#pragma tucana shared
int table[8];
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  for (int i = 0; i < 8; i++) table[i] = i * i;
  printf("table %d\n", table[7]);
  MPI_Finalize();
  return 0;
}
