/* superblock in a function called from an outer loop several times; nested loops in regions */
#include <mpi.h>
#include <stdio.h>
#define NX 6
#define NY 5
static void exchange_steps(double g[NX][NY], int left, int right, int steps, int tag) {
  double in[NY], out[NY];
  MPI_Request r[2];
  for (int s = 0; s < steps; s++)
#pragma tucana superblock
  for (int k = 0; k < 2; k++) {
#pragma tucana receive
    { MPI_Irecv(in, NY, MPI_DOUBLE, left, tag + k, MPI_COMM_WORLD, &r[0]); }
#pragma tucana send
    { for (int j = 0; j < NY; j++) out[j] = g[NX - 1][j]; MPI_Isend(out, NY, MPI_DOUBLE, right, tag + k, MPI_COMM_WORLD, &r[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      for (int i = NX - 1; i > 0; i--)
        for (int j = 0; j < NY; j++) g[i][j] = 0.5 * (g[i][j] + g[i - 1][j]);
      for (int j = 0; j < NY; j++) g[0][j] = 0.25 * (g[0][j] + in[j]) + s;
    }
  }
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double g[NX][NY];
  for (int i = 0; i < NX; i++) for (int j = 0; j < NY; j++) g[i][j] = rank * 8 + i + j;
  for (int outer = 0; outer < 3; outer++)
    exchange_steps(g, (rank + size - 1) % size, (rank + 1) % size, 2, outer * 10);
  double s = 0;
  for (int i = 0; i < NX; i++) for (int j = 0; j < NY; j++) s += g[i][j] * (i + 1);
  printf("rank %d sum %.6f\n", rank, s);
  MPI_Finalize();
  return 0;
}
