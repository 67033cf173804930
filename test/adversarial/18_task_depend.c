/* tasks with depend(in/out/inout) chains on array elements and scalars, shared() counters, taskwait */
#include <mpi.h>
#include <stdio.h>
#define N 6
static long stage(long x, int k) { return (x * 3 + k) % 10007; }
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long a[N], b[N];
  long *pa = a, *pb = b;
  long total = 0;
  for (int i = 0; i < N; i++) { a[i] = rank + i; b[i] = 0; }
  for (int i = 0; i < N; i++) {
#pragma tucana task depend(inout: a[i])
    { pa[i] = stage(pa[i], 1); }
#pragma tucana task depend(in: a[i]) depend(out: b[i])
    { pb[i] = stage(pa[i], 2); }
#pragma tucana task depend(inout: a[i]) depend(in: b[i])
    { pa[i] = pa[i] + pb[i]; }
#pragma tucana task depend(in: a[i], b[i]) depend(inout: total) shared(total)
    { total += pa[i] * 2 + pb[i]; }
  }
#pragma tucana taskwait
  long all;
  MPI_Allreduce(&total, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d total %ld a5 %ld all %ld\n", rank, total, a[N - 1], all);
  MPI_Finalize();
  return 0;
}
