/* named regions: role(any) doing MPI_Sendrecv and a collective, a region named recv_* with role(compute), depends() empty,
   a chain of same-iteration dependencies, comma-expression region statement */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long a = rank + 1, b = 0, c = 0, sum = 0, got = 0, tmp = 0;
  int steps = 0;
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana region(swap) depends(reduce*) role(any)
    { tmp = a; MPI_Sendrecv(&tmp, 1, MPI_LONG, r, it, &got, 1, MPI_LONG, l, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
#pragma tucana region(recv_mix) depends(swap) role(compute)
    b = (b * 3 + got) % 10007, c += b;
#pragma tucana region(count) depends()
    steps++;
#pragma tucana region(reduce) depends(recv_mix, count) role(any)
    { MPI_Allreduce(&b, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD); a = (a + sum + steps) % 10007; }
  }
  printf("rank %d a %ld b %ld c %ld sum %ld steps %d\n", rank, a, b, c, sum, steps);
  MPI_Finalize();
  return 0;
}
