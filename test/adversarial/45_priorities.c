/* priority(EXPR) on the superblock and on regions, using the loop variable, negative priorities */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long x = rank, y = rank * 2, in1 = 0, in2 = 0, o1 = 0, o2 = 0;
  MPI_Request a[2], b[2];
#pragma tucana superblock priority(rank % 2)
  for (int it = 0; it < 6; it++) {
#pragma tucana receive priority(it)
    MPI_Irecv(&in1, 1, MPI_LONG, l, 1, MPI_COMM_WORLD, &a[0]);
#pragma tucana send priority(-1 - it)
    { o1 = x; MPI_Isend(&o1, 1, MPI_LONG, r, 1, MPI_COMM_WORLD, &a[1]); }
#pragma tucana compute priority(it % 3 - 1)
    { MPI_Waitall(2, a, MPI_STATUSES_IGNORE); x = (x * 7 + in1) % 5003; }
  }
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana region(rx) depends(work*) role(receive) priority(10)
    MPI_Irecv(&in2, 1, MPI_LONG, r, 2, MPI_COMM_WORLD, &b[0]);
#pragma tucana region(tx) depends(work*, tx*) role(send) priority(-5)
    { o2 = y + x; MPI_Isend(&o2, 1, MPI_LONG, l, 2, MPI_COMM_WORLD, &b[1]); }
#pragma tucana region(work) depends(rx, tx) priority(size - it)
    { MPI_Waitall(2, b, MPI_STATUSES_IGNORE); y = (y * 3 + in2) % 5003; }
  }
  printf("rank %d x %ld y %ld\n", rank, x, y);
  MPI_Finalize();
  return 0;
}
