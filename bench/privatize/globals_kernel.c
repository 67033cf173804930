/* The privatization benchmark: hot loops that read and write global and
 * static variables, timed inside the program. bench/privatize/run.sh builds
 * it twice with tucanacc, privatized (the default) and with
 * --privatize=no, and compares the two.
 *
 *   loop:     a relaxation sweep over global arrays, with global
 *             coefficients and a global counter, in one function
 *             (the privatized addresses are computed once per call);
 *   accessor: a small non-inlined function that reads and writes globals,
 *             called once per element (the worst case: every call asks the
 *             runtime for the subrank's copy).
 * usage: globals_kernel [N] [SWEEPS]; prints the slowest subrank's times.
 * Privatized, each subrank checks its own counters. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN (1 << 20)
double grid[MAXN], next[MAXN];
double weight = 0.25, centre = 0.5;
long updates;
static double scale = 1.0000001;
static long calls;

static void sweep(int n) {
  for (int i = 1; i < n - 1; ++i) {
    next[i] = centre * grid[i] + weight * (grid[i - 1] + grid[i + 1]);
    updates++;
  }
  for (int i = 1; i < n - 1; ++i) grid[i] = next[i];
}

__attribute__((noinline)) static double scaled(double x) {
  calls++;
  return x * scale;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = argc > 1 ? atoi(argv[1]) : 100000, sweeps = argc > 2 ? atoi(argv[2]) : 200;
  if (n > MAXN) n = MAXN;
  for (int i = 0; i < n; ++i) grid[i] = (double)(i % 17) + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int s = 0; s < sweeps; ++s) sweep(n);
  double t1 = MPI_Wtime();
  double acc = 0;
  for (int s = 0; s < sweeps; ++s)
    for (int i = 0; i < n; ++i) acc += scaled(grid[i]);
  double t2 = MPI_Wtime();
  double mine[2] = {t1 - t0, t2 - t1}, slowest[2];
  MPI_Reduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  long expect = (long)sweeps * (n - 2);
#ifndef SHARED_GLOBALS /* shared (--privatize=no), the subranks add to one counter */
  if (updates != expect || calls != (long)sweeps * n) {
    fprintf(stderr, "rank %d: wrong counts %ld %ld\n", rank, updates, calls);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
#else
  (void)expect;
#endif
  if (rank == 0) printf("loop %.4f s accessor %.4f s (check %.6e)\n", slowest[0], slowest[1], acc + grid[n / 2]);
  MPI_Finalize();
  return 0;
}
