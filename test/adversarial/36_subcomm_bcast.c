/* MPI_Comm_split sub-communicators; regions use the row communicator, compute does MPI_Bcast and MPI_Allreduce on it */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm row;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &row);
  int rr, rs;
  MPI_Comm_rank(row, &rr);
  MPI_Comm_size(row, &rs);
  int peer = (rr + 1) % rs;
  long x = rank * 11 + 2, in = 0, out = 0, lead = 0, rsum = 0;
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, peer, it, row, &q[0]);
#pragma tucana send
    { out = x; MPI_Isend(&out, 1, MPI_LONG, peer, it, row, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      x = (x * 3 + in) % 10007;
      lead = x;
      MPI_Bcast(&lead, 1, MPI_LONG, it % rs, row);
      MPI_Allreduce(&x, &rsum, 1, MPI_LONG, MPI_SUM, row);
      x = (x + lead + rsum) % 10007;
    }
  }
  printf("rank %d x %ld lead %ld rsum %ld\n", rank, x, lead, rsum);
  MPI_Comm_free(&row);
  MPI_Finalize();
  return 0;
}
