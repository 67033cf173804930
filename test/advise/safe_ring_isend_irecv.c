// An Isend/Irecv ring completed by MPI_Waitall at top level: the posts and
// the wait are Comm(i); the wait moves to the next iteration, after
// Before(i+1). The array buffers are replicated (copied in at the post,
// out at the wait), so fill() may write 'out' while the send is in flight.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s --check-prefix=TEXT --implicit-check-not=warning:
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: grep -v "^// " %t.c | FileCheck %s -DFILE=%s --check-prefix=OUT
// --line matches any line of the site's statements (here: the MPI_Waitall's).
// RUN: %tucana-cco rewrite --mpi %s -o %t2.c --line 28 -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
#include <mpi.h>

#define N 8
double out[N], in[N], acc[N];

static void fill(double *x, int it) {
  for (int k = 0; k < N; ++k) x[k] = it + k;
}

void ring(int niter, int left, int right) {
  MPI_Request reqs[2];
  // TEXT: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Irecv at line [[@LINE+4]] is safe to pipeline (replicates 'in', 'out')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Irecv at line [[@LINE+3]] (replicates 'in', 'out')
  for (int it = 0; it < niter; ++it) {
    fill(out, it);
    MPI_Irecv(in, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(out, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    for (int k = 0; k < N; ++k) acc[k] += in[k];
  }
}
// OUT: if (tucana_cco_pending_26) {
// OUT-NEXT: tucana_cco_end(reqs, MPI_STATUSES_IGNORE, 2);
// OUT-NEXT: if (tucana_cco_len0_26) memcpy(tucana_cco_dst0_26, tucana_cco_rep0_26, tucana_cco_len0_26);
// OUT: MPI_Irecv(tucana_cco_rep0_26, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &reqs[0]);
// OUT: MPI_Isend(tucana_cco_rep1_26, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &reqs[1]);
// OUT-NEXT: tucana_cco_begin(reqs, MPI_STATUSES_IGNORE, 2);
// OUT: for (int k = 0; k < N; ++k) { tucana_cco_progress(); acc[k] += in[k]; }
