/* __attribute__ on functions, variables and statements (fallthrough, aligned, unused, cleanup) in regions */
#include <mpi.h>
#include <stdio.h>
static int cleaned;
static void on_exit_scope(int *p) { cleaned += *p; }
static inline __attribute__((always_inline)) long sq(long x) { return x * x; }
__attribute__((noinline, hot)) static long weigh(const long *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += sq(v[i]) % 97;
  return s;
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long in[8] __attribute__((aligned(64))), out[8] __attribute__((aligned(64)));
  long st[8];
  for (int i = 0; i < 8; i++) st[i] = rank * 8 + i;
  long acc = 0;
  MPI_Request r[2];
  __attribute__((unused)) int unused_here = 0;
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    { MPI_Irecv(in, 8, MPI_LONG, left, 4, MPI_COMM_WORLD, &r[0]); }
#pragma tucana send
    {
      __attribute__((cleanup(on_exit_scope))) int tok = it;
      for (int i = 0; i < 8; i++) out[i] = st[i] + it;
      MPI_Isend(out, 8, MPI_LONG, right, 4, MPI_COMM_WORLD, &r[1]);
    }
#pragma tucana compute
    {
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      switch (it % 3) {
      case 0: acc += 1; __attribute__((fallthrough));
      case 1: acc += weigh(in, 8); break;
      default: acc -= 3;
      }
      for (int i = 0; i < 8; i++) st[i] = (st[i] + in[i]) % 1009;
    }
  }
  printf("rank %d acc %ld cleaned %d\n", rank, acc, cleaned);
  MPI_Finalize();
  return 0;
}
