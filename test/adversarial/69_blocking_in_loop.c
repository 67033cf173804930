/* blocking MPI_Send / MPI_Recv inside a loop in send / receive regions, where the buffer is used textually before
   the call but after it in the next trip of the loop (pack-then-send and receive-then-accumulate written rotated) */
#include <mpi.h>
#include <stdio.h>
#define K 4
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long sb, rb = 0, acc = 0, base = rank * 10;
  long got[K];
#pragma tucana superblock
  for (int it = 0; it < 3; it++) {
#pragma tucana send
    {
      for (int k = 0; k < K; k++) {
        sb = base + it * 100 + k;   /* overwritten each trip: the send must have copied it */
        MPI_Send(&sb, 1, MPI_LONG, r, k, MPI_COMM_WORLD);
      }
    }
#pragma tucana receive
    {
      for (int k = 0; k < K; k++) {
        if (k > 0) got[k - 1] = rb;   /* reads the previous trip's message */
        MPI_Recv(&rb, 1, MPI_LONG, l, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }
#pragma tucana compute
    { got[K - 1] = rb; for (int k = 0; k < K; k++) acc = acc * 7 + got[k] % 1000; acc %= 1000000007; }
  }
  printf("rank %d acc %ld got %ld %ld %ld %ld\n", rank, acc, got[0], got[1], got[2], got[3]);
  MPI_Finalize();
  return 0;
}
