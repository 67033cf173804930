/* superblock on a { } block (one iteration), as the body of an if, of a case label and of a plain label */
#include <mpi.h>
#include <stdio.h>
static int l, r;
static long exchange(long v, int mode) {
  long in = 0, out = v;
  MPI_Request q[2];
  switch (mode) {
  case 0:
#pragma tucana superblock
  {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 10, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    MPI_Isend(&out, 1, MPI_LONG, r, 10, MPI_COMM_WORLD, &q[1]);
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v += in; }
  }
    break;
  case 1:
    if (v >= 0)
#pragma tucana superblock
    {
#pragma tucana receive
      MPI_Irecv(&in, 1, MPI_LONG, r, 11, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
      MPI_Isend(&out, 1, MPI_LONG, l, 11, MPI_COMM_WORLD, &q[1]);
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = v * 2 - in; }
    }
    break;
  default:
  again:
#pragma tucana superblock
    {
#pragma tucana receive
      MPI_Irecv(&in, 1, MPI_LONG, l, 12, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
      MPI_Isend(&out, 1, MPI_LONG, r, 12, MPI_COMM_WORLD, &q[1]);
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = (v + 3 * in) % 100003; out = v; mode--; }
    }
    if (mode > 1) goto again;
  }
  return v;
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  l = (rank + size - 1) % size; r = (rank + 1) % size;
  long v = rank + 1;
  for (int m = 0; m < 4; m++) v = exchange(v, m) % 100003;
  printf("rank %d v %ld\n", rank, v);
  MPI_Finalize();
  return 0;
}
