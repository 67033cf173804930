/* '#pragma GCC unroll 2' placed BEFORE '#pragma tucana superblock' (the docs allow other pragmas between the
   superblock pragma and the loop; this is the other order, which plain compilers accept). The translator inserts the
   superblock's '{ static const tucana_dependency ...' glue between '#pragma GCC unroll 2' and the loop. gcc:
     error: for, while or do statement expected before '{' token
   (the same happens with '#pragma GCC ivdep' or any loop pragma that must precede its loop). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank, in = 0, out = 0;
  MPI_Request q[2];
#pragma GCC unroll 2
#pragma tucana superblock
  for (int it = 0; it < 4; it++) {
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
