/* named regions with explicit depends (same and previous iteration), two directions */
#include <mpi.h>
#include <stdio.h>
#define N 8
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long u[N + 2], rbl, rbr, sbl, sbr;
  for (int i = 0; i < N + 2; i++) u[i] = rank * N + i;
  MPI_Request rl, rr, sl, sr;
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana region(recv_l) depends(unpack_l*)
    { MPI_Irecv(&rbl, 1, MPI_LONG, left, 1, MPI_COMM_WORLD, &rl); }
#pragma tucana region(recv_r) depends(unpack_r*)
    { MPI_Irecv(&rbr, 1, MPI_LONG, right, 2, MPI_COMM_WORLD, &rr); }
#pragma tucana region(pack) depends(compute*, send_l*, send_r*)
    { sbl = u[1]; sbr = u[N]; }
#pragma tucana region(send_l) depends(pack)
    { MPI_Isend(&sbl, 1, MPI_LONG, left, 2, MPI_COMM_WORLD, &sl); }
#pragma tucana region(send_r) depends(pack)
    { MPI_Isend(&sbr, 1, MPI_LONG, right, 1, MPI_COMM_WORLD, &sr); }
#pragma tucana region(unpack_l) depends(recv_l, compute*)
    { MPI_Wait(&rl, MPI_STATUS_IGNORE); u[0] = rbl; }
#pragma tucana region(unpack_r) depends(recv_r, compute*)
    { MPI_Wait(&rr, MPI_STATUS_IGNORE); u[N + 1] = rbr; }
#pragma tucana region(compute) depends(unpack_l, unpack_r, send_l, send_r) role(compute)
    {
      MPI_Wait(&sl, MPI_STATUS_IGNORE); MPI_Wait(&sr, MPI_STATUS_IGNORE);
      long nu[N + 2];
      for (int i = 1; i <= N; i++) nu[i] = (u[i - 1] + 2 * u[i] + u[i + 1] + it) % 1000;
      for (int i = 1; i <= N; i++) u[i] = nu[i];
    }
  }
  long s = 0;
  for (int i = 1; i <= N; i++) s += u[i] * i;
  printf("rank %d s %ld\n", rank, s);
  MPI_Finalize();
  return 0;
}
