/* After(i) writes an array that Before(i+1) reads through a file-scope
   pointer to it (`static double *cur = acc;`): the loop must not be
   pipelined (it printed a wrong result when it was). The second loop is
   safe and pipelined. */
#include <mpi.h>
#include <stdio.h>

static double acc[1];
static double *cur = acc;
static double sums[8];

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double s = 0, r = 0;
  for (int it = 0; it < 4; ++it) {
    s = cur[0] + 1;
    MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc[0] += r;
  }
  for (int it = 0; it < 8; ++it) {
    s = it + rank;
    MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sums[it] = r;
  }
  if (rank == 0) {
    printf("acc %g\n", acc[0]);
    for (int it = 0; it < 8; ++it) printf("sum %d %g\n", it, sums[it]);
  }
  MPI_Finalize();
  return 0;
}
