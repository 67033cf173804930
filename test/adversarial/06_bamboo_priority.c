/* bamboo olap with priority, blocking MPI_Recv/MPI_Send reinterpreted, compute parts */
#include <mpi.h>
#include <stdio.h>
#define N 12
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank - 1 >= 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  double u[N + 2], un[N + 2];
  for (int i = 0; i < N + 2; i++) u[i] = (rank * N + i) % 7;
  double gl = 0, gr = 0, el, er;
  MPI_Status st;
  int i;
#pragma bamboo olap
  for (i = 0; i < 10; i++) {
#pragma bamboo send
    {
      el = u[1]; er = u[N];
      MPI_Send(&el, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD);
      MPI_Send(&er, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
    }
#pragma bamboo priority(2)
#pragma bamboo receive
    {
      MPI_Recv(&gl, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &st);
      MPI_Recv(&gr, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &st);
    }
    if (left != MPI_PROC_NULL) u[0] = gl;
    if (right != MPI_PROC_NULL) u[N + 1] = gr;
    for (int k = 1; k <= N; k++) un[k] = 0.25 * u[k - 1] + 0.5 * u[k] + 0.25 * u[k + 1];
    for (int k = 1; k <= N; k++) u[k] = un[k];
  }
  double s = 0;
  for (int k = 1; k <= N; k++) s += u[k] * k;
  printf("rank %d s %.9f i %d\n", rank, s, i);
  MPI_Finalize();
  return 0;
}
