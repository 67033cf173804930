/* a macro that expands to TWO statements used as the statement of a receive region: Tucana applies the pragma to
   the first statement only; the second is reported as outside any region (clear, with a note at the macro) */
#include <mpi.h>
#include <stdio.h>
#define POST_BOTH(a, b, l, r, q) MPI_Irecv(a, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]); MPI_Irecv(b, 1, MPI_LONG, r, 1, MPI_COMM_WORLD, &q[1])
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long a = 0, b = 0, o[2], v = rank; MPI_Request q[4];
#pragma tucana superblock
  for (int it = 0; it < 3; it++) {
#pragma tucana receive
    POST_BOTH(&a, &b, l, r, q);
#pragma tucana send
    { o[0] = v; o[1] = v + 1; MPI_Isend(&o[0], 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[2]); MPI_Isend(&o[1], 1, MPI_LONG, l, 1, MPI_COMM_WORLD, &q[3]); }
#pragma tucana compute
    { MPI_Waitall(4, q, MPI_STATUSES_IGNORE); v = v * 2 + a + b; }
  }
  printf("rank %d v %ld\n", rank, v);
  MPI_Finalize();
  return 0;
}
