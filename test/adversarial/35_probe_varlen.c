/* variable-length messages: MPI_Probe + MPI_Get_count + MPI_Recv into a buffer sized by the count, in the receive region */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  int in[32], out[32], n = 0, nout;
  MPI_Status st;
  MPI_Request sreq;
  long acc = 0;
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana send
    { nout = 1 + (rank + it) % 7; for (int k = 0; k < nout; k++) out[k] = rank + k * it; MPI_Isend(out, nout, MPI_INT, r, 8, MPI_COMM_WORLD, &sreq); }
#pragma tucana receive
    {
      MPI_Probe(l, 8, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_INT, &n);
      MPI_Recv(in, n, MPI_INT, l, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
#pragma tucana compute
    { MPI_Wait(&sreq, MPI_STATUS_IGNORE); for (int k = 0; k < n; k++) acc += (long)in[k] * (k + 1); acc += n * 1000; }
  }
  printf("rank %d acc %ld\n", rank, acc);
  MPI_Finalize();
  return 0;
}
