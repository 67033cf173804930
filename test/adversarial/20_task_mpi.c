/* TPOD-style: one task per block does its own blocking MPI_Sendrecv / MPI_Recv+MPI_Send with distinct tags */
#include <mpi.h>
#include <stdio.h>
#define NB 4
#define BS 5
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long blk[NB][BS], ghost[NB];
  long (*pb)[BS] = blk;
  long *pg = ghost;
  for (int b = 0; b < NB; b++) for (int i = 0; i < BS; i++) blk[b][i] = rank * 100 + b * 10 + i;
  for (int step = 0; step < 4; step++) {
    for (int b = 0; b < NB; b++) {
#pragma tucana task name("block")
      {
        long edge = pb[b][BS - 1];
        if (b % 2 == 0)
          MPI_Sendrecv(&edge, 1, MPI_LONG, right, step * NB + b, &pg[b], 1, MPI_LONG, left, step * NB + b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else {
          MPI_Request rq;
          MPI_Irecv(&pg[b], 1, MPI_LONG, left, step * NB + b, MPI_COMM_WORLD, &rq);
          MPI_Send(&edge, 1, MPI_LONG, right, step * NB + b, MPI_COMM_WORLD);
          MPI_Wait(&rq, MPI_STATUS_IGNORE);
        }
        for (int i = BS - 1; i > 0; i--) pb[b][i] = (pb[b][i] + pb[b][i - 1]) % 1009;
        pb[b][0] = (pb[b][0] + pg[b]) % 1009;
      }
    }
#pragma tucana taskwait
  }
  long s = 0;
  for (int b = 0; b < NB; b++) for (int i = 0; i < BS; i++) s += blk[b][i] * (b + i + 1);
  printf("rank %d s %ld\n", rank, s);
  MPI_Finalize();
  return 0;
}
