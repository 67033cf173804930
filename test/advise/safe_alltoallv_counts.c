// An IS-shaped loop: MPI_Alltoall of the counts in Before(i), then
// MPI_Alltoallv of the keys. Before(i+1) rewrites the count and
// displacement arrays Comm(i) reads until it completes: they are
// replicated with the key buffers. The MPI_Alltoall of the counts itself is
// not safe: After(i) reads the keys Before(i+1) writes.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: grep -v "^// " %t.c | FileCheck %s --check-prefix=OUT
#include <mpi.h>

int scounts[16], rcounts[16], sdispls[16], rdispls[16];
int *skeys, *rkeys;
long sum;

void bucket(int it, int nranks) {
  for (int p = 0; p < nranks; ++p) scounts[p] = it + p;
  sdispls[0] = 0;
  for (int p = 1; p < nranks; ++p) sdispls[p] = sdispls[p - 1] + scounts[p - 1];
  for (int k = 0; k < sdispls[nranks - 1] + scounts[nranks - 1]; ++k) skeys[k] = k * it;
}

void run(int niter, int nranks) {
  // CHECK: [[FILE]]:[[@LINE+3]]:3: warning: loop over 'it': MPI_Alltoall at line [[@LINE+5]] is not safe to pipeline: Before(i+1) writes 'skeys' (line [[@LINE+4]]) which After(i) reads (line [[@LINE+8]])
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Alltoallv at line [[@LINE+7]] is safe to pipeline (replicates 'skeys', 'rkeys', 'scounts', 'sdispls', 'rcounts', 'rdispls')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Alltoallv at line [[@LINE+6]]
  for (int it = 0; it < niter; ++it) {
    bucket(it, nranks);
    MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, MPI_COMM_WORLD);
    rdispls[0] = 0;
    for (int p = 1; p < nranks; ++p) rdispls[p] = rdispls[p - 1] + rcounts[p - 1];
    MPI_Alltoallv(skeys, scounts, sdispls, MPI_INT, rkeys, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    for (int k = 0; k < 64; ++k) sum += rkeys[k];
  }
}
// The receive blocks are copied out with the counts and displacements of the post.
// OUT: tucana_cco_unpack(tucana_cco_dst1_32, tucana_cco_rep1_32, (const int *)tucana_cco_cnt1_32, (const int *)tucana_cco_dsp1_32, tucana_cco_np1_32, tucana_cco_ext1_32);
// OUT: MPI_Ialltoallv(tucana_cco_rep0_32, (const int *)tucana_cco_rep2_32, (const int *)tucana_cco_rep3_32, MPI_INT, tucana_cco_rep1_32, (const int *)tucana_cco_rep4_32, (const int *)tucana_cco_rep5_32, MPI_INT, MPI_COMM_WORLD, &tucana_cco_req_32[0]);

// The NAS IS shape: After(i) reads the counts Before(i+1) rewrites. The
// arrays are copied at the post and put back around After(i-1) (listed with
// the replicated buffers).
void run_counts(int niter, int nranks) {
  // CHECK: [[FILE]]:[[@LINE+3]]:3: warning: loop over 'it': MPI_Alltoall at line [[@LINE+5]] is not safe
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Alltoallv at line [[@LINE+7]] is safe to pipeline (replicates 'skeys', 'rkeys', 'scounts', 'sdispls', 'rcounts', 'rdispls')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Alltoallv at line [[@LINE+6]]
  for (int it = 0; it < niter; ++it) {
    bucket(it, nranks);
    MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, MPI_COMM_WORLD);
    rdispls[0] = 0;
    for (int p = 1; p < nranks; ++p) rdispls[p] = rdispls[p - 1] + rcounts[p - 1];
    MPI_Alltoallv(skeys, scounts, sdispls, MPI_INT, rkeys, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    for (int k = 0; k < rdispls[nranks - 1] + rcounts[nranks - 1]; ++k) sum += rkeys[k];
  }
}
// OUT: memcpy(tucana_cco_keep0_[[L:[0-9]+]] + (tucana_cco_n_[[L]] % 2) * sizeof(rcounts), &rcounts, sizeof(rcounts));
// OUT: memcpy(&rcounts, tucana_cco_keep0_[[L]] + ((tucana_cco_n_[[L]] + 1) % 2) * sizeof(rcounts), sizeof(rcounts));
// OUT: for (int k = 0; k < rdispls[nranks - 1] + rcounts[nranks - 1]; ++k) { tucana_cco_progress(); sum += rkeys[k]; }
// OUT: memcpy(&rcounts, tucana_cco_keep0_[[L]] + (tucana_cco_n_[[L]] % 2) * sizeof(rcounts), sizeof(rcounts));
