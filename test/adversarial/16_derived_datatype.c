/* MPI_Type_vector column halo and MPI_Type_create_struct messages inside regions */
#include <mpi.h>
#include <stdio.h>
#include <stddef.h>
#define R 5
#define C 6
typedef struct { int id; double w; long tag[2]; } rec_t;
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Datatype col, rect;
  MPI_Type_vector(R, 1, C + 2, MPI_LONG, &col);
  MPI_Type_commit(&col);
  int bl[3] = {1, 1, 2};
  MPI_Aint disp[3] = {offsetof(rec_t, id), offsetof(rec_t, w), offsetof(rec_t, tag)};
  MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_LONG};
  MPI_Type_create_struct(3, bl, disp, ty, &rect);
  MPI_Type_commit(&rect);
  long g[R][C + 2];
  for (int i = 0; i < R; i++) for (int j = 0; j < C + 2; j++) g[i][j] = rank * 100 + i * 10 + j;
  rec_t rin, rout = {rank, rank * 0.5, {rank, -rank}};
  MPI_Request q[4];
  double wsum = 0;
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana receive
    {
      MPI_Irecv(&g[0][0], 1, col, left, 0, MPI_COMM_WORLD, &q[0]);
      MPI_Irecv(&rin, 1, rect, left, 1, MPI_COMM_WORLD, &q[1]);
    }
#pragma tucana send
    {
      MPI_Isend(&g[0][C], 1, col, right, 0, MPI_COMM_WORLD, &q[2]);
      MPI_Isend(&rout, 1, rect, right, 1, MPI_COMM_WORLD, &q[3]);
    }
#pragma tucana compute
    {
      MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
      for (int i = 0; i < R; i++) for (int j = C; j >= 1; j--) g[i][j] = (g[i][j] + g[i][j - 1] + it) % 9973;
      wsum += rin.w + rin.id + rin.tag[0] - rin.tag[1];
      rout.w = rin.w + 0.25; rout.tag[0] += rin.id;
    }
  }
  long s = 0;
  for (int i = 0; i < R; i++) for (int j = 1; j <= C; j++) s += g[i][j] * (j + i);
  printf("rank %d s %ld wsum %.4f tag %ld\n", rank, s, wsum, rout.tag[0]);
  MPI_Type_free(&col); MPI_Type_free(&rect);
  MPI_Finalize();
  return 0;
}
