/* the first superblock is in a function whose declaration starts with an attribute on the line before, a macro
   for the storage class, a K&R-style definition, and a bamboo olap with several compute parts and stray ';' */
#include <mpi.h>
#include <stdio.h>
#define PRIVATE_FN static
static int L, R;
__attribute__((noinline))
PRIVATE_FN long
step_ring(v, n)
  long v;
  int n;
{
  long in = 0, out = 0;
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < n; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, L, 0, MPI_COMM_WORLD, &q[0]);
    ;
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, R, 0, MPI_COMM_WORLD, &q[1]); }
    /* a comment between regions */
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = (v * 2 + in) % 10007; }
    ;
  }
  return v;
}
static long bamboo_parts(long v) {
  long a = 0, b = 0, in = 0, out = 0;
  MPI_Request q[2];
  int i;
#pragma bamboo olap
  for (i = 0; i < 4; i++) {
    a = v + i;
    a *= 2;
#pragma bamboo receive
    { MPI_Irecv(&in, 1, MPI_LONG, L, 1, MPI_COMM_WORLD, &q[0]); }
#pragma bamboo send
    { b = a + 1; out = b; MPI_Isend(&out, 1, MPI_LONG, R, 1, MPI_COMM_WORLD, &q[1]); }
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    v = (v + in + b) % 10007;
  }
  return v;
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  L = (rank + size - 1) % size; R = (rank + 1) % size;
  long v = step_ring(rank + 1, 5);
  long w = bamboo_parts(v);
  printf("rank %d v %ld w %ld\n", rank, v, w);
  MPI_Finalize();
  return 0;
}
