/* static locals declared inside region blocks and inside the superblock's function; a static buffer as message buffer */
#include <mpi.h>
#include <stdio.h>
static long run(int l, int r, int steps) {
  static long inbuf[4];
  static MPI_Request q[2];
  long acc = 0;
#pragma tucana superblock
  for (int it = 0; it < steps; it++) {
#pragma tucana receive
    { static int nrecv; nrecv++; MPI_Irecv(inbuf, 4, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]); acc += nrecv; }
#pragma tucana send
    {
      static long outbuf[4];
      static long base = 5;
      base = base * 3 % 101;
      for (int i = 0; i < 4; i++) outbuf[i] = base + i + acc;
      MPI_Isend(outbuf, 4, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]);
    }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); for (int i = 0; i < 4; i++) acc += inbuf[i] * (i + 1); }
  }
  return acc;
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long a = run(l, r, 3 + rank % 2 * 0);
  long b = run(l, r, 4);
  printf("rank %d a %ld b %ld\n", rank, a, b);
  MPI_Finalize();
  return 0;
}
