/* MPI_ANY_SOURCE receives with statuses: every rank sends to all others, result is order independent */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long in[8], out[8];
  MPI_Request rr[8], sr[8];
  MPI_Status sts[8];
  long acc = 0, srcsum = 0;
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    for (int k = 0; k < size - 1; k++) MPI_Irecv(&in[k], 1, MPI_LONG, MPI_ANY_SOURCE, 100 + it, MPI_COMM_WORLD, &rr[k]);
#pragma tucana send
    {
      int k = 0;
      for (int d = 0; d < size; d++) {
        if (d == rank) continue;
        out[k] = rank * 1000 + it * 10 + d;
        MPI_Isend(&out[k], 1, MPI_LONG, d, 100 + it, MPI_COMM_WORLD, &sr[k]);
        k++;
      }
    }
#pragma tucana compute
    {
      MPI_Waitall(size - 1, rr, sts);
      MPI_Waitall(size - 1, sr, MPI_STATUSES_IGNORE);
      for (int k = 0; k < size - 1; k++) {
        acc += in[k] % 1000 + (in[k] / 1000) * 7;
        srcsum += sts[k].MPI_SOURCE;
        if (in[k] / 1000 != sts[k].MPI_SOURCE) acc += 1000000;
      }
    }
  }
  printf("rank %d acc %ld srcsum %ld\n", rank, acc, srcsum);
  MPI_Finalize();
  return 0;
}
