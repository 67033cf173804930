// An FT-shaped loop: the work before and after MPI_Alltoall is in called
// functions, the buffers are global pointers. Before(i+1) writes the send
// buffer and After(i-1) reads the receive buffer while Comm(i) is in flight:
// both are replicated. The rewrite peels nothing by hand: the first
// iteration posts only, the last wait and After(N) follow the loop.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s --check-prefix=TEXT --implicit-check-not=warning:
// RUN: %tucana-cco check --json %s -- | FileCheck %s -DFILE=%s --check-prefix=JSON
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: grep -v "^// " %t.c | FileCheck %s -DFILE=%s --check-prefix=OUT
#include <mpi.h>
#include <stdio.h>

#define N 16
double u[N];
double *sbuf, *rbuf;

static void evolve(double *x, int it) {
  for (int k = 0; k < N; ++k) x[k] += it;
}
static void pack(double *out, const double *in) {
  for (int k = 0; k < N; ++k)
    out[k] = in[k];
}
static double checksum(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k) s += x[k];
  return s;
}

double run(int niter) {
  double sum = 0;
  // TEXT: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Alltoall at line [[@LINE+5]] is safe to pipeline (replicates 'sbuf', 'rbuf')
  // JSON: {"file": "[[FILE]]", "loops": [{"line": [[@LINE+1]], "end_line": [[@LINE+6]], "var": "it", "sites": [{"line": [[@LINE+4]], "call": "MPI_Alltoall", "verdict": "safe", "reasons": [], "replicate": ["sbuf", "rbuf"]}]}]}
  for (int it = 0; it < niter; ++it) {
    evolve(u, it);
    pack(sbuf, u);
    MPI_Alltoall(sbuf, 1, MPI_DOUBLE, rbuf, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    sum += checksum(rbuf, N);
  }
  return sum;
}
// NOTE: [[FILE]]:35:3: note: loop over 'it': pipelined MPI_Alltoall at line 38 (replicates 'sbuf', 'rbuf')

// OUT: #line 1 "[[FILE]]"
// OUT: #ifndef TUCANA_CCO_TEST_FREQ
// OUT-NEXT: #define TUCANA_CCO_TEST_FREQ 1024
// OUT-NEXT: #endif
// OUT: static TUCANA_CCO_UNUSED void tucana_cco_progress(void) {
// OUT: #line 18 "[[FILE]]"
// OUT-NEXT: static void evolve(double *x, int it) {
// OUT-NEXT:   for (int k = 0; k < N; ++k) { tucana_cco_progress(); x[k] += it; }
// OUT: for (int k = 0; k < N; ++k)
// OUT-NEXT: { tucana_cco_progress(); out[k] = in[k]; }
// OUT: { /* tucana-cco: MPI_Alltoall (line 38) pipelined: Comm(i) overlaps After(i-1) and Before(i+1) */
// OUT: for (int it = 0; it < niter; ++it) {
// OUT-NEXT: #line 36 "[[FILE]]"
// OUT-NEXT: evolve(u, it);
// OUT-NEXT: pack(sbuf, u);
// OUT: if (tucana_cco_pending_38) {
// OUT-NEXT: tucana_cco_end(tucana_cco_req_38, tucana_cco_st_38, 1);
// OUT-NEXT: if (tucana_cco_len1_38) memcpy(tucana_cco_dst1_38, tucana_cco_rep1_38, tucana_cco_len1_38);
// OUT-NEXT: }
// OUT: memcpy(tucana_cco_grow(&tucana_cco_rep0_38, &tucana_cco_cap0_38, tucana_cco_len0_38), sbuf, tucana_cco_len0_38);
// OUT: MPI_Ialltoall(tucana_cco_rep0_38, 1, MPI_DOUBLE, tucana_cco_rep1_38, 1, MPI_DOUBLE, MPI_COMM_WORLD, &tucana_cco_req_38[0]);
// OUT-NEXT: tucana_cco_begin(tucana_cco_req_38, tucana_cco_st_38, 1);
// OUT-NEXT: if (tucana_cco_pending_38) {
// OUT-NEXT: int tucana_cco_cur_38 = it;
// OUT-NEXT: it = tucana_cco_prev_38;
// OUT-NEXT: #line 39 "[[FILE]]"
// OUT-NEXT: sum += checksum(rbuf, N);
// OUT: if (tucana_cco_pending_38) {
// OUT-NEXT: tucana_cco_end(tucana_cco_req_38, tucana_cco_st_38, 1);
// OUT: int it = tucana_cco_prev_38;
// OUT-NEXT: #line 39 "[[FILE]]"
// OUT-NEXT: sum += checksum(rbuf, N);
// OUT: #line 40 "[[FILE]]"
// OUT-NEXT: }
// OUT-NEXT: return sum;
