/* preprocessor inside a superblock: #ifdef around statements in regions, #if 0'd pragma, comments between pragma and statement, a pragma continued over lines, if/else as a region */
#include <mpi.h>
#include <stdio.h>
#define USE_SCALE 1
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank + 4, in = 0, out = 0;
  MPI_Request q[2];
#pragma tucana \
    superblock
  for (int it = 0; it < 6; it++) {
    /* the receive region */
#pragma tucana receive
    // a line comment between the pragma and its statement
    if (l != MPI_PROC_NULL)
      MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
    else
      q[0] = MPI_REQUEST_NULL;
#if 0
#pragma tucana region(bogus)
#endif
#pragma tucana send
    {
#ifdef USE_SCALE
      out = v * 2;
#else
      out = v;
#endif
      MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]);
    }
#pragma tucana compute /* trailing comment */
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
#if USE_SCALE > 0
      v = (v + in) % 8191;
#endif
    }
  }
  printf("rank %d v %ld\n", rank, v);
  MPI_Finalize();
  return 0;
}
