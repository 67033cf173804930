/* `#pragma cco do private(...)` where the buffers cannot be swapped, so
   each iteration's values are copied: `stage` is a section from 1 (not 0)
   of a heap array, `scratch` a fixed-size array, and the loop steps with
   `it += 1` (no trip count is derived). Before(i) writes both, After(i)
   reads what Before(i) wrote and writes them again as work arrays, and
   Before(i+1) overwrites them while After(i) still needs iteration i's
   values: without private(...) the loop is unsafe. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

static int rank_, nranks;
static double field[N], sbuf[N], rbuf[N], scratch[16];
static double *stage;
static double sum;

static void run(int niter) {
  int it, k;
#pragma cco do private(stage[1:N], scratch)
  for (it = 0; it < niter; it += 1) {
    for (k = 0; k < N; ++k) field[k] = (rank_ + 1) * (k % 7) + it;
    for (k = 0; k < N; ++k) stage[1 + k] = field[k] * 0.5;
    for (k = 0; k < 16; ++k) scratch[k] = stage[1 + k] + it;
    for (k = 0; k < N; ++k) sbuf[k] = stage[1 + k] + scratch[k % 16];
    MPI_Allreduce(sbuf, rbuf, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (k = 0; k < N; ++k) sum += rbuf[k] * stage[1 + k] - scratch[k % 16];
    for (k = 0; k < N; ++k) stage[1 + k] = rbuf[k] - it;
    for (k = 0; k < 16; ++k) scratch[k] = stage[1 + k] * 2;
    for (k = 0; k < 16; ++k) sum += scratch[k];
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  stage = calloc(N + 2, sizeof(double));
  int runs[] = {0, 1, 2, 5};
  for (int r = 0; r < 4; ++r) {
    sum = 0;
    run(runs[r]);
    double total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_ == 0) printf("private_copy niter=%d sum=%.1f last=%.1f %.1f\n", runs[r], total, stage[1], scratch[3]);
  }
  free(stage);
  MPI_Finalize();
  return 0;
}
