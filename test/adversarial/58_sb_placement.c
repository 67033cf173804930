/* superblock placements: then-branch of an if with an else, body of a brace-less while, after #pragma GCC unroll /
   #pragma omp, two loop variables in the header, a region that is a labelled block, region statements that are a
   switch and a while */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank + 1, in = 0, out = 0;
  MPI_Request q[2];
  if (argc < 100)
#pragma tucana superblock
    for (int i = 0, j = 7; i < j; i += 2, j--) {
#pragma tucana receive
      switch (i % 2) { case 0: MPI_Irecv(&in, 1, MPI_LONG, l, i, MPI_COMM_WORLD, &q[0]); break; default: MPI_Irecv(&in, 1, MPI_LONG, l, i, MPI_COMM_WORLD, &q[0]); }
#pragma tucana send
      { out = v + j; MPI_Isend(&out, 1, MPI_LONG, r, i, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
      {
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        v = (v * 3 + in) % 4001;
      }
    }
  else
    v = -1;
  int outer = 0;
  while (outer++ < 2)
#pragma GCC unroll 2
#pragma tucana superblock
    for (int k = 0; k < 3; k++) {
#pragma tucana receive
      MPI_Irecv(&in, 1, MPI_LONG, r, 9, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    done_send: { out = v ^ k; MPI_Isend(&out, 1, MPI_LONG, l, 9, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
      while (1) {
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        int shadow_k = k;
        { int k = 100; v = (v + in + k + shadow_k) % 4001; }
        break;
      }
    }
  printf("rank %d v %ld outer %d\n", rank, v, outer);
  MPI_Finalize();
  return 0;
}
