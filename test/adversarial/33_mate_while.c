/* MATE spelling: a while loop of mate regions (no superblock pragma), role() clauses, depends on previous iteration */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  double x = rank + 1.0, in = 0, out = 0;
  MPI_Request rr, sr;
  int step = 0;
  while (step < 8) {
#pragma mate region(post) depends(use*) role(receive)
    { MPI_Irecv(&in, 1, MPI_DOUBLE, l, 4, MPI_COMM_WORLD, &rr); }
#pragma mate region(ship) depends(use*, ship*) role(send)
    { out = x; MPI_Isend(&out, 1, MPI_DOUBLE, r, 4, MPI_COMM_WORLD, &sr); }
#pragma mate region(use) depends(post, ship)
    { MPI_Wait(&rr, MPI_STATUS_IGNORE); MPI_Wait(&sr, MPI_STATUS_IGNORE); x = 0.5 * x + 0.25 * in + step; step++; }
  }
  printf("rank %d x %.9f step %d\n", rank, x, step);
  MPI_Finalize();
  return 0;
}
