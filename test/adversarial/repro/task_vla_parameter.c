/* A task in a function with a variably modified array parameter (C99 'long u[n][n]', which is a pointer
   'long (*u)[n]', not an array): translator error
     error: 'u' is a variable-length array and cannot be captured by a task; use a pointer to its first element
   Documented limitation for VLAs (docs/annotations.md, Tasks, Errors), but the parameter is a pointer to a VLA row
   type, so the message is inaccurate, and the suggested workaround loses the 2D indexing. */
#include <mpi.h>
#include <stdio.h>
static void relax(int n, long u[n][n]) {
  for (int i = 0; i < n; i++) {
#pragma tucana task
    { for (int j = 1; j < n; j++) u[i][j] += u[i][j - 1]; }
  }
#pragma tucana taskwait
}
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long u[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  relax(3, u);
  printf("%ld %ld %ld\n", u[0][2], u[1][2], u[2][2]);
  MPI_Finalize();
  return 0;
}
