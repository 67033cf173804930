/* GNU C nested function in a file with a superblock: Clang (the translator's parser) rejects nested functions, so
   tucanacc stops with "function definition is not allowed here" and a clear note that --no-translate compiles the
   file as is (loops then run without overlap). Documented limitation (docs/privatization.md: "A source that Clang
   cannot parse (code only GCC accepts)"). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank, in = 0, out = 0;
  long mix(long a, long b) { return (a * 31 + b) % 65521; }
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 4; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = mix(v, in); }
  }
  printf("rank %d v %ld\n", rank, v);
  MPI_Finalize();
  return 0;
}
