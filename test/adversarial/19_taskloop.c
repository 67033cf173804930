/* taskloop with num_tasks/grainsize, odd bounds and steps, per-iteration slots, reversed loop */
#include <mpi.h>
#include <stdio.h>
#define N 101
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long x[N], y[N];
  long *px = x, *py = y;
  for (int i = 0; i < N; i++) { x[i] = i * (rank + 1); y[i] = 0; }
#pragma tucana taskloop num_tasks(4)
  for (int i = 0; i < N; i++) py[i] = px[i] * px[i] % 997;
#pragma tucana taskloop grainsize(7)
  for (long i = N - 1; i >= 3; i -= 3) py[i] += 5;
  int k;
#pragma tucana taskloop
  for (k = 2; k <= 60; k = k + 4) { if (k % 8 == 2) continue; py[k] -= 1; }
  long s = 0;
  for (int i = 0; i < N; i++) s += y[i] * (i + 1);
  long all;
  MPI_Reduce(&s, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  printf("rank %d s %ld\n", rank, s);
  if (rank == 0) printf("all %ld\n", all);
  MPI_Finalize();
  return 0;
}
