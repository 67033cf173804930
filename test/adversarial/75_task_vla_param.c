/* C99 scientific style: a function taking a variably modified 2D array parameter (int n, long u[n][n]) spawns tasks
   and a taskloop over its rows; the task statements index u[i][j] */
#include <mpi.h>
#include <stdio.h>
static void relax(int n, long u[n][n], int rank) {
#pragma tucana taskloop num_tasks(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) u[i][j] = (u[i][j] * 3 + i + j + rank) % 1009;
  for (int i = 0; i < n; i++) {
#pragma tucana task
    { for (int j = 1; j < n; j++) u[i][j] += u[i][j - 1] % 7; }
  }
#pragma tucana taskwait
}
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = 5 + argc;   /* 6 */
  long u[n][n];
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) u[i][j] = i * n + j;
  relax(n, u, rank);
  relax(n, u, rank);
  long s = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += u[i][j] * (i + 1);
  printf("rank %d s %ld\n", rank, s);
  MPI_Finalize();
  return 0;
}
