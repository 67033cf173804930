/* An IS-shaped loop: keys bucketed per destination, MPI_Alltoall of the
   counts, displacements, MPI_Alltoallv of the keys; the received keys are
   summed (over the whole receive array: its blocks are at the displacements
   of this iteration, the rest keeps what earlier iterations left). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NKEYS 200
#define MAXR 16

static int rank, nranks;
static int keys[NKEYS];
static int scounts[MAXR], rcounts[MAXR], sdispls[MAXR], rdispls[MAXR];
static int *skeys, *rkeys;
static long sum;

static void make_keys(int it) {
  unsigned s = (unsigned)(rank * 7919 + it * 104729 + 1);
  for (int k = 0; k < NKEYS; ++k) {
    s = s * 1103515245u + 12345u;
    keys[k] = (int)((s >> 8) % 1000);
  }
}

static void bucket(void) {
  for (int p = 0; p < nranks; ++p) scounts[p] = 0;
  for (int k = 0; k < NKEYS; ++k) scounts[keys[k] * nranks / 1000]++;
  sdispls[0] = 0;
  for (int p = 1; p < nranks; ++p) sdispls[p] = sdispls[p - 1] + scounts[p - 1];
  int fill[MAXR];
  for (int p = 0; p < nranks; ++p) fill[p] = sdispls[p];
  for (int k = 0; k < NKEYS; ++k) {
    int p = keys[k] * nranks / 1000;
    skeys[fill[p]++] = keys[k];
  }
}

static void displacements(void) {
  rdispls[0] = 0;
  for (int p = 1; p < nranks; ++p) rdispls[p] = rdispls[p - 1] + rcounts[p - 1];
}

static long total(const int *x, int n) {
  long s = 0;
  for (int k = 0; k < n; ++k) s += (long)x[k] * (k % 5 + 1);
  return s;
}

static void run(int niter) {
  for (int it = 0; it < niter; ++it) {
    make_keys(it);
    bucket();
    MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, MPI_COMM_WORLD);
    displacements();
    MPI_Alltoallv(skeys, scounts, sdispls, MPI_INT, rkeys, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    sum += total(rkeys, NKEYS * nranks) + it;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  skeys = calloc(NKEYS, sizeof(int));
  rkeys = calloc((size_t)NKEYS * nranks, sizeof(int));
  int runs[] = {0, 1, 2, 6};
  for (int r = 0; r < 4; ++r) {
    sum = 0;
    run(runs[r]);
    long global = 0;
    MPI_Reduce(&sum, &global, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("is_like niter=%d sum=%ld last=%ld\n", runs[r], global, total(rkeys, NKEYS * nranks));
  }
  free(skeys);
  free(rkeys);
  MPI_Finalize();
  return 0;
}
