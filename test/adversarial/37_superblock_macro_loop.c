/* a time-loop macro that expands to _Pragma("tucana superblock") and the loop header, used like a keyword */
#include <mpi.h>
#include <stdio.h>
#define TIME_LOOP(it, n) _Pragma("tucana superblock") for (int it = 0; it < (n); it++)
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank, in = 0, out = 0;
  MPI_Request q[2];
  TIME_LOOP(it, 4) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = v * 2 + in; }
  }
  printf("rank %d v %ld\n", rank, v);
  MPI_Finalize();
  return 0;
}
