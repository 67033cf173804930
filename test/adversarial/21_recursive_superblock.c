/* superblock in a recursive function (divide and conquer over levels), each call its own superblock */
#include <mpi.h>
#include <stdio.h>
static int left, right;
static long level_exchange(long v, int depth) {
  long in = 0, out = 0, acc = v;
  MPI_Request r[2];
  if (depth == 0) return v;
#pragma tucana superblock
  for (int i = 0; i < depth; i++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, left, depth * 10 + i, MPI_COMM_WORLD, &r[0]);
#pragma tucana send
    { out = acc + depth; MPI_Isend(&out, 1, MPI_LONG, right, depth * 10 + i, MPI_COMM_WORLD, &r[1]); }
#pragma tucana compute
    { MPI_Waitall(2, r, MPI_STATUSES_IGNORE); acc = (acc * 2 + in + level_exchange(in % 7, depth - 1)) % 100003; }
  }
  return acc;
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  left = (rank + size - 1) % size; right = (rank + 1) % size;
  long r = level_exchange(rank + 1, 3);
  printf("rank %d r %ld\n", rank, r);
  MPI_Finalize();
  return 0;
}
