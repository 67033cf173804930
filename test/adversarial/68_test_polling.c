/* polling: MPI_Test / MPI_Iprobe busy loops (with work between polls) inside a compute region on requests it posts
   itself, MPI_Waitany and MPI_Testall in regions */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long a = rank + 1, in[2] = {0, 0}, out[2], extra = 0, eo = 0, polls = 0;
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    { MPI_Irecv(&in[0], 1, MPI_LONG, l, 1, MPI_COMM_WORLD, &q[0]); }
#pragma tucana send
    { out[0] = a; MPI_Isend(&out[0], 1, MPI_LONG, r, 1, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      int idx, flag = 0;
      for (int k = 0; k < 2; k++) MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
      MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
      a = (a * 3 + in[0] + flag) % 7919;
      /* a second exchange done by hand, polled */
      MPI_Request x[2];
      eo = a + it;
      MPI_Irecv(&extra, 1, MPI_LONG, r, 2, MPI_COMM_WORLD, &x[0]);
      long junk, note = it * 100 + rank;
      MPI_Request nreq;
      MPI_Isend(&note, 1, MPI_LONG, l, 3, MPI_COMM_WORLD, &nreq);
      int probed = 0;
      while (!probed) { MPI_Iprobe(r, 3, MPI_COMM_WORLD, &probed, MPI_STATUS_IGNORE); polls++; }
      MPI_Recv(&junk, 1, MPI_LONG, r, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait(&nreq, MPI_STATUS_IGNORE);
      a = (a + junk) % 7919;
      MPI_Isend(&eo, 1, MPI_LONG, l, 2, MPI_COMM_WORLD, &x[1]);
      flag = 0;
      while (!flag) MPI_Test(&x[0], &flag, MPI_STATUS_IGNORE);
      MPI_Wait(&x[1], MPI_STATUS_IGNORE);
      a = (a + extra) % 7919;
    }
  }
  printf("rank %d a %ld\n", rank, a);
  MPI_Finalize();
  return 0;
}
