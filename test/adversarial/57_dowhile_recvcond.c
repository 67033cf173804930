/* do-while superblock whose condition reads data received in the iteration (a global termination flag travels the ring) */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  int msg[2] = {0, 0}, out[2], rounds = 0;   /* msg: value, stop flag */
  int val = rank + 1;
  MPI_Request q[2];
#pragma tucana superblock
  do {
#pragma tucana receive
    MPI_Irecv(msg, 2, MPI_INT, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out[0] = val; out[1] = rounds >= 5 + (val < 0); MPI_Isend(out, 2, MPI_INT, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); val = (val * 3 + msg[0]) % 1001; rounds++; }
  } while (!msg[1]);
  printf("rank %d val %d rounds %d\n", rank, val, rounds);
  MPI_Finalize();
  return 0;
}
