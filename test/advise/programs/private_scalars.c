/* Loop counters and a partial sum assigned on both sides of the
   communication (function locals, defined before read in each part, dead
   after the loop): privatized, the loop is pipelined. */
#include <mpi.h>
#include <stdio.h>

#define N 64

static int rank, nranks;
static double a[N], b[N];

static double run(int niter) {
  int i, j;
  double s, sum = 0;
  for (int it = 0; it < niter; ++it) {
    for (i = 0; i < N; i++) a[i] = rank + it * 0.5 + i;
    j = it % 3, s = j + 1.0;
    for (i = 0; i < N; i += 2) a[i] *= s;
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s = 0;
    for (i = 0; i < N; i++) s += b[i] * (i + 1);
    for (j = 0; j < 3; j++) sum += s * (j + it);
  }
  i = -1;
  return sum + i;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int runs[] = {0, 1, 2, 7};
  for (int r = 0; r < 4; ++r) {
    double x = run(runs[r]);
    if (rank == 0) printf("private_scalars niter=%d result=%.3f\n", runs[r], x);
  }
  MPI_Finalize();
  return 0;
}
