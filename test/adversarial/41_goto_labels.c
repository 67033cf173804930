/* goto within a region (retry loop and error exit to a label of the same region); computed goto in a called helper */
#include <mpi.h>
#include <stdio.h>
static long classify(long v) {
  static void *tbl[] = {&&even, &&odd};
  goto *tbl[v & 1];
even: return v / 2;
odd: return 3 * v + 1;
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank + 7, in = 0, out = 0, steps = 0;
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 2, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, r, 2, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      v = v + in % 13;
      int tries = 0;
    again:
      v = classify(v);
      steps++;
      if (v != 1 && ++tries < 20) goto again;
      if (v > 1000) goto skip;
      v += it;
    skip:;
    }
  }
  printf("rank %d v %ld steps %ld\n", rank, v, steps);
  MPI_Finalize();
  return 0;
}
