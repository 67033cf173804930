/* bamboo olap on a block inside a loop body: statements before and after the block are compute parts */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long a = rank + 1, b = 0, in = 0, out = 0, before = 0, after = 0;
  MPI_Request q[2];
  for (int it = 0; it < 7; it++) {
    before += a;
#pragma bamboo olap
    {
#pragma bamboo receive
      { MPI_Irecv(&in, 1, MPI_LONG, l, it, MPI_COMM_WORLD, &q[0]); }
#pragma bamboo send
      { out = a * 2; MPI_Isend(&out, 1, MPI_LONG, r, it, MPI_COMM_WORLD, &q[1]); }
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      b = (b + in) % 10007;
    }
    after += b;
    a = (a + b) % 1009;
  }
  printf("rank %d a %ld b %ld before %ld after %ld\n", rank, a, b, before, after);
  MPI_Finalize();
  return 0;
}
