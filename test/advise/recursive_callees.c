// Mutually recursive callees: g's effects are those of f (it calls f), even
// when g is first summarized inside f's own summary, where the recursion is
// cut. That cut summary of g (without f's write of 'other') must not be
// reused for the direct call of g in After.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s
#include <mpi.h>

double other[8], in[8];
void g(int n);
void f(int n) {
  other[n % 8] = n;
  if (n > 0) g(n - 1);
}
void g(int n) {
  if (n > 0) f(n - 1);
}

void loop(int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i-1) writes 'other' (line [[@LINE+4]]) which Comm(i) reads (line [[@LINE+3]])
  for (int it = 0; it < niter; ++it) {
    f(it);
    MPI_Allreduce(other, in, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    g(it);
  }
}
