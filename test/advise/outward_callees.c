// The outward search: communication that is not a top-level statement of
// its innermost loop (posts in nested loops, a wait inside a block, a call
// inside an `if`) makes the statements holding it Comm(i) of the first
// enclosing loop where its posts are completed; communication inside a
// called function makes the call Comm(i) of the caller's loop. check gives
// the verdict of that loop; rewrite refuses both with the reason.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
// RUN: %tucana-cco check --json %s -- | FileCheck %s --check-prefix=JSON
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: diff %s %t.c
#include <mpi.h>

#define NDIR 2
double *u, *unew, *sendbuf[NDIR], *recvbuf[NDIR];
int nbr[NDIR], n;
double total;

void pack(const double *src, int d, double *buf) { buf[0] = src[d]; }
void unpack(double *dst, int d, const double *buf) { dst[d] = buf[0]; }
double sweep(const double *in, double *out) {
  double s = 0;
  for (int k = 0; k < n; ++k) s += out[k] = in[k] * 0.5;
  return s;
}

// jacobi3d's time loop: the posts in loops inside blocks, the wait in a
// block; After(i) swaps the grids Comm(i+1) packs from.
void jacobi(int niter) {
  MPI_Request req[2 * NDIR];
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Irecv at line [[@LINE+4]] is not safe to pipeline: After(i-1) writes 'pointer u' (line [[@LINE+17]]) which Comm(i) reads (line [[@LINE+7]]); After(i-1) writes 'u' (line [[@LINE+14]]) which Comm(i) reads (line [[@LINE+7]])
  for (int it = 0; it < niter; it++) {
    {
      for (int d = 0; d < NDIR; d++)
        MPI_Irecv(recvbuf[d], 1, MPI_DOUBLE, nbr[d], d ^ 1, MPI_COMM_WORLD, &req[d]);
    }
    {
      for (int d = 0; d < NDIR; d++) {
        pack(u, d, sendbuf[d]);
        MPI_Isend(sendbuf[d], 1, MPI_DOUBLE, nbr[d], d, MPI_COMM_WORLD, &req[NDIR + d]);
      }
    }
    {
      MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
      for (int d = 0; d < NDIR; d++) unpack(u, d, recvbuf[d]);
      total += sweep(u, unew);
      double *tmp = u;
      u = unew;
      unew = tmp;
    }
  }
}

// The same exchange of data After(i) does not touch: safe.
void gather(int niter, double *out) {
  MPI_Request req[2 * NDIR];
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': MPI_Irecv at line [[@LINE+3]] is safe to pipeline (replicates 'recvbuf')
  for (int it = 0; it < niter; it++) {
    for (int d = 0; d < NDIR; d++)
      MPI_Irecv(recvbuf[d], 1, MPI_DOUBLE, nbr[d], 0, MPI_COMM_WORLD, &req[d]);
    for (int d = 0; d < NDIR; d++)
      MPI_Isend(sendbuf[d], 1, MPI_DOUBLE, nbr[d], 0, MPI_COMM_WORLD, &req[NDIR + d]);
    MPI_Waitall(2 * NDIR, req, MPI_STATUSES_IGNORE);
    out[it] = recvbuf[0][0] + recvbuf[1][0];
  }
  // NOTE: [[FILE]]:[[@LINE-8]]:3: note: loop over 'it': not rewritten: MPI_Irecv at line [[@LINE-6]]: Comm(i) is made of nested statements (lines [[@LINE-7]]-[[@LINE-3]])
}

// Communication in callees: a halo exchange and a dot product.
void exchange(double *x) {
  MPI_Request req[2];
  MPI_Irecv(recvbuf[0], 1, MPI_DOUBLE, nbr[0], 0, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(x, 1, MPI_DOUBLE, nbr[1], 0, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  x[n - 1] = recvbuf[0][0];
}
double dot(const double *a, const double *b) {
  double local = 0, global = 0;
  for (int k = 0; k < n; ++k) local += a[k] * b[k];
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

void solve(int niter, double *hist) {
  // The sites are the MPI calls in the callees (lines 72, 73 and 80); rewrite
  // inlines exchange() (post, post, wait: Comm(i)), not dot() (returns a value).
  // (jacobi() swaps the global pointers u and unew: they may point to one object.)
  // CHECK: [[FILE]]:[[@LINE+4]]:3: warning: loop over 'it': MPI_Irecv at line 72 is not safe to pipeline: After(i-1) writes 'u' (line [[@LINE+8]]) which Comm(i) reads (line [[@LINE+5]])
  // CHECK: [[FILE]]:[[@LINE+3]]:3: warning: loop over 'it': MPI_Isend at line 73 is not safe to pipeline: After(i-1) writes 'u' (line [[@LINE+7]]) which Comm(i) reads (line [[@LINE+4]])
  // CHECK: [[FILE]]:[[@LINE+2]]:3: warning: loop over 'it': MPI_Allreduce at line 80 is not safe to pipeline: After(i-1) writes 'u' (line [[@LINE+6]]) which Comm(i) reads (line [[@LINE+5]]); Before(i+1) writes 'u' (line [[@LINE+3]]) which Comm(i) reads (line [[@LINE+5]]); After(i) writes 'u' (line [[@LINE+6]]) which Before(i+1) reads (line [[@LINE+3]])
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: MPI_Irecv at line 72 is unsafe: After(i-1) writes 'u' (line [[@LINE+5]]) which Comm(i) reads (line 73); MPI_Allreduce at line 80 is unsafe: {{.*}}; 'dot' cannot be inlined: it returns a value (line 81)
  for (int it = 0; it < niter; it++) {
    exchange(u);
    sweep(u, unew);
    hist[it] = dot(unew, unew);
    for (int k = 0; k < n; ++k) u[k] = unew[k];
  }
}

// JSON: {"line": 92, "end_line": 97, "var": "it", "sites": [{"line": 72, "call": "MPI_Irecv", "verdict": "unsafe", "reasons": ["After(i-1) writes 'u' (line 96) which Comm(i) reads (line 93)"], "replicate": []}, {"line": 73, "call": "MPI_Isend", "verdict": "unsafe", "reasons": ["After(i-1) writes 'u' (line 96) which Comm(i) reads (line 93)"], "replicate": []}, {"line": 80, "call": "MPI_Allreduce", "verdict": "unsafe",
// JSON-NOT: "line": 0,
