/* compute regions that create and free communicators (MPI_Comm_dup, MPI_Comm_split) and datatypes every iteration,
   and use them for a collective and for the next iteration's messages; MPI_Barrier and MPI_Alltoall in compute */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_LONG, &pair);
  MPI_Type_commit(&pair);
  long in[2], out[2], v = rank + 1, a2a_s[4], a2a_r[4];
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 4; it++) {
#pragma tucana receive
    MPI_Irecv(in, 1, pair, l, it, comm, &q[0]);
#pragma tucana send
    { out[0] = v; out[1] = it; MPI_Isend(out, 1, pair, r, it, comm, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      v = (v * 3 + in[0] + in[1]) % 10007;
      MPI_Comm sub, next;
      MPI_Comm_split(comm, (rank + it) % 2, rank, &sub);
      long ssum;
      MPI_Allreduce(&v, &ssum, 1, MPI_LONG, MPI_SUM, sub);
      MPI_Comm_free(&sub);
      MPI_Comm_dup(comm, &next);
      MPI_Comm_free(&comm);
      comm = next;
      MPI_Type_free(&pair);
      MPI_Type_contiguous(2, MPI_LONG, &pair);
      MPI_Type_commit(&pair);
      for (int k = 0; k < 4; k++) a2a_s[k] = v + k;
      MPI_Barrier(comm);
      MPI_Alltoall(a2a_s, 1, MPI_LONG, a2a_r, 1, MPI_LONG, comm);
      v = (v + ssum + a2a_r[0] + a2a_r[3]) % 10007;
    }
  }
  MPI_Type_free(&pair);
  MPI_Comm_free(&comm);
  printf("rank %d v %ld\n", rank, v);
  MPI_Finalize();
  return 0;
}
