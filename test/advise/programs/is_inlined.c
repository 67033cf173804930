/* The NAS IS shape as IS writes it: the timed loop calls rank(it), which
   buckets the keys into `work`, exchanges counts (MPI_Alltoall) and keys
   (MPI_Alltoallv into `recv`), then reuses `work` as the ranking's work
   array. tucana-cco inlines rank() and pipelines the loop around
   MPI_Alltoallv; `#pragma cco do private(...)` says that no value of `work`
   or `recv` flows from one iteration to the next, so each parity of
   iterations gets its own buffers. After the loop, verify() reads the last
   iteration's ranks through `last_ranks`, set in the last iteration only, as
   IS's full_verify does (a pointer into them kept from an earlier iteration
   would break what private(...) asserts). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NKEYS 256
#define MAXKEY 1024
#define MAXR 16

static int rank_, nranks;
static int keys[NKEYS];
static int *scounts, *rcounts, *sdispls, *rdispls;
static int bucket_totals[MAXR];
static int *work, *recv, *last_ranks;
static int nrecv, lo_key, last_iter;
static long checks;

static void rank(int it) {
  int k, p;
  int fill[MAXR];
  for (p = 0; p < MAXR; ++p) bucket_totals[p] = 0;
  unsigned s = (unsigned)(rank_ * 7919 + it * 104729 + 1);
  for (k = 0; k < NKEYS; ++k) {
    s = s * 1103515245u + 12345u;
    keys[k] = (int)((s >> 8) % MAXKEY);
  }
  for (p = 0; p < nranks; ++p) scounts[p] = 0;
  for (k = 0; k < NKEYS; ++k) scounts[keys[k] * nranks / MAXKEY]++;
  MPI_Allreduce(scounts, bucket_totals, nranks, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  sdispls[0] = 0;
  for (p = 1; p < nranks; ++p) sdispls[p] = sdispls[p - 1] + scounts[p - 1];
  for (p = 0; p < nranks; ++p) fill[p] = sdispls[p];
  for (k = 0; k < NKEYS; ++k) {
    p = keys[k] * nranks / MAXKEY;
    work[fill[p]++] = keys[k];
  }
  MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, MPI_COMM_WORLD);
  rdispls[0] = 0;
  for (p = 1; p < nranks; ++p) rdispls[p] = rdispls[p - 1] + rcounts[p - 1];
  MPI_Alltoallv(work, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);

  /* The ranking: `work` is now the population of each key of this rank's range. */
  int lo = rank_ * MAXKEY / nranks, hi = (rank_ + 1) * MAXKEY / nranks;
  int n = bucket_totals[rank_];
  int *pop = work - lo;
  for (k = 0; k < hi - lo; ++k) work[k] = 0;
  for (k = 0; k < n; ++k) pop[recv[k]]++;
  for (k = lo; k < hi - 1; ++k) pop[k + 1] += pop[k];
  checks += (long)pop[hi - 1] * (it + 1) + (n > 0 ? pop[(lo + hi) / 2] : 0);
  if (it == last_iter) {
    last_ranks = pop;
    nrecv = n;
    lo_key = lo;
  }
}

static long verify(void) {
  long s = 0;
  for (int k = 0; k < nrecv; ++k) s += last_ranks[recv[k]] * (long)(k % 7 + 1);
  return s;
}

static void run(int niter) {
  last_iter = niter - 1;
#pragma cco do private(work[0:NKEYS * MAXR], recv[0:NKEYS * MAXR])
  for (int it = 0; it < niter; ++it) {
    rank(it);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks > MAXR) MPI_Abort(MPI_COMM_WORLD, 1);
  scounts = calloc(MAXR, sizeof(int));
  rcounts = calloc(MAXR, sizeof(int));
  sdispls = calloc(MAXR, sizeof(int));
  rdispls = calloc(MAXR, sizeof(int));
  work = calloc(NKEYS * MAXR, sizeof(int));
  recv = calloc(NKEYS * MAXR, sizeof(int));
  int runs[] = {0, 1, 2, 3, 6, 7};
  for (int r = 0; r < 6; ++r) {
    int niter = runs[r];
    checks = 0;
    last_ranks = NULL;
    run(niter);
    long v = last_ranks ? verify() : -1, c = 0, w = 0;
    MPI_Reduce(&checks, &c, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&v, &w, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_ == 0) printf("is_inlined niter=%d checks=%ld verify=%ld\n", niter, c, w);
  }
  free(work);
  free(recv);
  MPI_Finalize();
  return 0;
}
