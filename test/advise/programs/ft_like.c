/* An FT-shaped loop: evolve, local work and pack into a send buffer,
   MPI_Alltoall, unpack and checksum; the work is in called functions and
   the buffers are pointers. Rank 0 prints one line per loop run. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NX 96

static double *u, *sbuf, *rbuf;
static int rank, nranks;

static void evolve(double *x, int n, int it) {
  for (int k = 0; k < n; ++k) x[k] = x[k] * 0.5 + (double)(it + k % 7);
}

static void pack(double *out, const double *in, int n, int p) {
  for (int k = 0; k < n; ++k) out[k] = in[k] + p;
}

static double checksum(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k) s += x[k] * (k % 3 + 1);
  return s;
}

static double run(int niter) {
  double total = 0, sums[8] = {0};
  for (int k = 0; k < NX; ++k) u[k] = rank + k;
  for (int it = 0; it < niter; ++it) {
    evolve(u, NX, it);
    for (int p = 0; p < nranks; ++p) pack(sbuf + p * NX, u, NX, p);
    MPI_Alltoall(sbuf, NX, MPI_DOUBLE, rbuf, NX, MPI_DOUBLE, MPI_COMM_WORLD);
    sums[it % 8] += checksum(rbuf, NX * nranks);
  }
  for (int k = 0; k < 8; ++k) total += sums[k] * (k + 1);
  /* The buffers hold the last iteration's data after the loop. */
  return total + checksum(rbuf, NX * nranks) + checksum(sbuf, NX * nranks);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  u = malloc(sizeof(double) * NX);
  sbuf = calloc((size_t)NX * nranks, sizeof(double));
  rbuf = calloc((size_t)NX * nranks, sizeof(double));
  int runs[] = {0, 1, 2, 7};
  for (int r = 0; r < 4; ++r) {
    double local = run(runs[r]), global = 0;
    MPI_Reduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("ft_like niter=%d result=%.6f\n", runs[r], global);
  }
  free(u);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
