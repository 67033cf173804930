// superblock inside a lambda body (and a generic lambda), called several times
#include <mpi.h>
#include <cstdio>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank + 1;
  auto ring = [&](int steps, int tag) {
    long in = 0, out = 0;
    MPI_Request q[2];
#pragma tucana superblock
    for (int s = 0; s < steps; s++) {
#pragma tucana receive
      MPI_Irecv(&in, 1, MPI_LONG, l, tag, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
      { out = v; MPI_Isend(&out, 1, MPI_LONG, r, tag, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = (v * 3 + in) % 10007; }
    }
    return v;
  };
  long a = ring(3, 1);
  long b = ring(2, 2);
  std::printf("rank %d a %ld b %ld\n", rank, a, b);
  MPI_Finalize();
  return 0;
}
