/* extern globals defined in another file, modified in regions of this file and via callee in the other */
#include <mpi.h>
#include <stdio.h>
#include "state.h"
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  nsteps += rank;   /* each rank its own step count */
  long in = 0, out = rank;
  MPI_Request q[2];
  for (int t = 0; t < 10; t++) {
    int active = t < nsteps;
    int la = (t < 6 + l), ra = (t < 6 + r); /* neighbours' activity */
#pragma tucana superblock
    {
#pragma tucana receive
      { if (la && active) MPI_Irecv(&in, 1, MPI_LONG, l, t, MPI_COMM_WORLD, &q[0]); else q[0] = MPI_REQUEST_NULL; }
#pragma tucana send
      { if (ra && active) MPI_Isend(&out, 1, MPI_LONG, r, t, MPI_COMM_WORLD, &q[1]); else q[1] = MPI_REQUEST_NULL; }
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); if (active && la) { record(in); ledger[0] ^= 1; out = (out + in) % 977; } }
    }
  }
  printf("rank %d nsteps %d n %d sum %ld\n", rank, nsteps, ledger_n, ledger_sum());
  MPI_Finalize();
  return 0;
}
