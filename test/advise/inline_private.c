// rewrite inlines a callee holding the loop's communication, then pipelines
// the loop. The callee's parameter and top-level locals become variables of
// the caller (named callee_name), its declarations assignments, and
// the inlined text keeps the callee's line numbers (#line). `work` is the
// send buffer and then a work array, `recv` the receive buffer:
// private(...) gives each iteration parity its own buffers (the loop has a
// trip count, the sections start at 0: no copies). Without private(...) the
// same loop is unsafe.
//
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: grep -v "^// " %t.c | FileCheck %s -DFILE=%s --check-prefix=OUT
// RUN: sed 's/^#pragma cco do private.*/#pragma cco do/' %s > %t.noprivate.c
// RUN: %tucana-cco rewrite --mpi %t.noprivate.c -o %t.2.c -- | FileCheck %s --check-prefix=NOPRIVATE
#include <mpi.h>

#define N 32
static double *work, *recv;
static double total;

static void step(int it) {
  int k;
  double s = 0;
  for (k = 0; k < N; ++k) work[k] = it + k;
  MPI_Allreduce(work, recv, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (k = 0; k < N; ++k) work[k] = recv[k] * 2;
  for (k = 0; k < N; ++k) s += work[k];
  total += s;
}

void run(int niter) {
#pragma cco do private(work[0:N], recv[0:N])
  for (int it = 0; it < niter; ++it) {
    step(it);
  }
}
// NOTE: [[FILE]]:32:3: note: loop over 'it': pipelined MPI_Allreduce at line 24 (replicates 'step_s'; a buffer per iteration parity for 'work', 'recv')
// NOPRIVATE: note: loop over 'it': not rewritten: MPI_Allreduce at line 24 is unsafe: After(i-1) writes 'work' (line 25) which Comm(i) reads (line 24); Before(i+1) and After(i) both write 'work' (lines 23 and 25)

// OUT: TUCANA_CCO_UNUSED static void step(int it) {
// OUT: void run(int niter) { int step_it; int step_k; double step_s;
// OUT: double * tucana_cco_base0_[[S:[0-9]+]] = work;
// OUT: long tucana_cco_trips0_[[S]] = (long)(1LL > 0 && ((long long)(0)) < ((long long)(niter)) ? (((long long)(niter)) - ((long long)(0)) + 1LL - 1) / 1LL : 0);
// OUT: static void *tucana_cco_alt0_[[S]] = NULL;
// OUT: work = ((tucana_cco_trips0_[[S]] - 1 - (long)(tucana_cco_n_[[S]])) % 2 == 0 ? tucana_cco_base0_[[S]] : (double *)tucana_cco_alt0_[[S]]);
// OUT: {{^ *}}step_it = (it);
// OUT-NEXT: #line 20 "[[FILE]]"
// OUT: step_s = 0;
// OUT: MPI_Iallreduce(work, recv, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &tucana_cco_req_[[S]][0]);
