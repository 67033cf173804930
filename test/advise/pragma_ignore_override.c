// The pragmas: '#pragma cco ignore' takes a statement out of the analysis
// (timers); '#pragma cco override NAME reads(...) writes(...)' gives the
// side effects of a function in place of its body, by parameter name,
// 1-based position or global variable; '#pragma cco do' limits the
// analysis to the loops it marks. The rewrite drops the pragma lines (the
// compilers would warn about them) and keeps the line numbers.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: not grep -n "^#pragma cco" %t.c
// RUN: %tucana-cco check %s -- -DNO_DO | FileCheck %s -DFILE=%s --check-prefix=ALL
#include <mpi.h>

#define N 8
double a[N], b[N], state[N];
void timer_start(int which);
void timer_stop(int which);
void fft(int dir, double *in, double *out);
void smooth(double *x);

#pragma cco override fft reads(in) writes(3)
#pragma cco override smooth reads(x, state) writes(state)

void ignored(int niter) {
#ifndef NO_DO
#pragma cco do
#endif
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+6]] is safe to pipeline (replicates 'a')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Allreduce at line [[@LINE+5]] (replicates 'a')
  for (int it = 0; it < niter; ++it) {
#pragma cco ignore
    timer_start(1);
    fft(1, state, a);
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma cco ignore
    timer_stop(1);
  }
}

void overridden(int niter) {
#ifndef NO_DO
#pragma cco do
#endif
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'state' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    fft(1, state, a);
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    smooth(b);
  }
}

void unmarked(int niter) {
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Barrier at line [[@LINE+3]] cannot be pipelined: the loop is not marked '#pragma cco do' (other loops of the file are)
  // ALL: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': MPI_Barrier at line [[@LINE+2]] is safe to pipeline
  for (int it = 0; it < niter; ++it) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
