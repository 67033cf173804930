/* 2D periodic 2x2 process grid, 4 neighbours, Isend/Irecv arrays and MPI_Waitall split between regions */
#include <mpi.h>
#include <stdio.h>
#define N 4
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, per[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
  int nb[4];
  MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
  MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
  long g[N][N], rb[4][N], sb[4][N];
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) g[i][j] = rank * 16 + i * 4 + j;
  MPI_Request rr[4], sr[4];
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    for (int d = 0; d < 4; d++) MPI_Irecv(rb[d], N, MPI_LONG, nb[d], d ^ 1, cart, &rr[d]);
#pragma tucana send
    {
      for (int k = 0; k < N; k++) { sb[0][k] = g[0][k]; sb[1][k] = g[N - 1][k]; sb[2][k] = g[k][0]; sb[3][k] = g[k][N - 1]; }
      for (int d = 0; d < 4; d++) MPI_Isend(sb[d], N, MPI_LONG, nb[d], d, cart, &sr[d]);
    }
#pragma tucana compute
    {
      MPI_Waitall(4, rr, MPI_STATUSES_IGNORE);
      MPI_Waitall(4, sr, MPI_STATUSES_IGNORE);
      for (int k = 0; k < N; k++) {
        g[0][k] += rb[0][k]; g[N - 1][k] += rb[1][k]; g[k][0] += rb[2][k]; g[k][N - 1] += rb[3][k];
      }
      for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) g[i][j] %= 10007;
    }
  }
  long s = 0;
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) s += g[i][j] * (i * N + j + 1);
  printf("rank %d s %ld\n", rank, s);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
