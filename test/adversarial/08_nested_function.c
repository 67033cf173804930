/* GNU C nested functions defined in main, called inside regions (trampolines for one) */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long total = rank, in = 0, out = 0;
  int calls = 0;
  long mix(long a, long b) { calls++; return (a * 31 + b) % 65521; }
  void apply(long (*f)(long, long), long *dst, long v) { *dst = f(*dst, v); }
  MPI_Request r[2];
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, left, 0, MPI_COMM_WORLD, &r[0]);
#pragma tucana send
    { out = mix(total, it); MPI_Isend(&out, 1, MPI_LONG, right, 0, MPI_COMM_WORLD, &r[1]); }
#pragma tucana compute
    { MPI_Waitall(2, r, MPI_STATUSES_IGNORE); apply(mix, &total, in); }
  }
  printf("rank %d total %ld calls %d\n", rank, total, calls);
  MPI_Finalize();
  return 0;
}
