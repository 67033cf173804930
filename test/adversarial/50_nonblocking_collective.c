/* MPI_Iallreduce and MPI_Ibcast posted and waited in a compute region; MPI_Reduce_scatter_block in another */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long x = rank + 3, in = 0, out = 0, sum = 0, root_val = 0;
  long sendv[4], part = 0;
  MPI_Request q[2], c[2];
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = x; MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      x = (x * 5 + in) % 10007;
      root_val = x;
      MPI_Iallreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &c[0]);
      MPI_Ibcast(&root_val, 1, MPI_LONG, it % size, MPI_COMM_WORLD, &c[1]);
      MPI_Waitall(2, c, MPI_STATUSES_IGNORE);
      for (int k = 0; k < 4; k++) sendv[k] = x + k;
      MPI_Reduce_scatter_block(sendv, &part, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      x = (x + sum + root_val + part) % 10007;
    }
  }
  printf("rank %d x %ld sum %ld root %ld part %ld\n", rank, x, sum, root_val, part);
  MPI_Finalize();
  return 0;
}
