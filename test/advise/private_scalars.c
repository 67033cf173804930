// Scalar privatization: a local scalar of the loop's function (address never
// taken) that the loop header and Comm(i) do not mention, that Before(i) and
// After(i) each define before they read it (`i = 0;`, `for (i = 0; ...)`),
// and that is dead after the loop carries nothing across the parts: the loop
// counters 'i' and 'j' and the partial sum 's' below, assigned on both sides
// of the MPI_Allreduce, do not stop the pipelining (nor a scalar dead after
// a loop in an if-branch). A scalar read after the loop (also after the if
// around it), read before it is defined in a part, defined only under an
// if, in a loop nested in another loop, or whose address is taken, still
// does.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
#include <mpi.h>
#include <stdio.h>

#define N 16
double a[N], b[N];
void touch(int *p);

double counters(int niter) {
  int i, j;
  double s, sum = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is safe to pipeline (replicates 'a', 'b')
  for (int it = 0; it < niter; ++it) {
    for (i = 0; i < N; i++) a[i] = it + i;
    j = 3, s = j * 2.0;
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s = 0;
    for (i = 0; i < N; i++) s += b[i];
    for (j = 0; j < 2; j++) sum += s * j;
  }
  i = 0;
  return sum + i;
}
// NOTE: [[FILE]]:25:3: note: loop over 'it': pipelined MPI_Allreduce at line 28 (replicates 'a', 'b')

double live_after(int niter) {
  int i;
  double sum = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'i' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    for (i = 0; i < N; i++) a[i] = it + i;
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < N; i++) sum += b[i];
  }
  return sum + i;  // the last value of 'i' is used
}

double read_first(int niter) {
  int i = 0;
  double sum = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'i' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    a[i % N] = it;
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < N; i++) sum += b[i];
  }
  return sum;
}

double address_taken(int niter) {
  int i;
  double sum = 0;
  touch(&i);
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'i' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    for (i = 0; i < N; i++) a[i] = it + i;
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < N; i++) sum += b[i];
  }
  return sum;
}

double in_comm(int niter) {
  int n;
  double sum = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i-1) writes 'n' (line [[@LINE+4]]) which Comm(i) reads (line [[@LINE+3]]){{$}}
  for (int it = 0; it < niter; ++it) {
    n = N;
    MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    n = 0;
    sum += b[n];
  }
  return sum;
}

double conditional_definition(int niter, int c) {
  int i = 0;
  double sum = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is not safe to pipeline: After(i) writes 'i' (line [[@LINE+5]]) which Before(i+1) reads (line [[@LINE+3]])
  for (int it = 0; it < niter; ++it) {
    if (c) i = 0;  // not a definition on every path
    a[i] = it;
    MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < N; i++) sum += b[i];
  }
  return sum;
}

double nested_in_a_loop(int niter) {
  int i;
  double sum = 0;
  for (int o = 0; o < 2; ++o) {
    sum += o;
    // CHECK: [[FILE]]:[[@LINE+1]]:5: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'i' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
    for (int it = 0; it < niter; ++it) {
      for (i = 0; i < N; i++) a[i] = it;
      MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      for (i = 0; i < N; i++) sum += b[i];
    }
  }
  return sum;
}

double live_after_the_if(int niter) {
  int i = 0;
  double sum = 0;
  if (niter) {
    // CHECK: [[FILE]]:[[@LINE+1]]:5: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'i' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
    for (int it = 0; it < niter; ++it) {
      for (i = 0; i < N; i++) a[i] = it;
      MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      for (i = 0; i < N; i++) sum += b[i];
    }
  }
  return sum + i;
}

double dead_in_the_other_branch(int niter) {
  int i;
  double sum = 0;
  if (niter) {
    // CHECK: [[FILE]]:[[@LINE+1]]:5: note: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is safe to pipeline (replicates 'a', 'b')
    for (int it = 0; it < niter; ++it) {
      for (i = 0; i < N; i++) a[i] = it;
      MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      for (i = 0; i < N; i++) sum += b[i];
    }
  } else {
    i = 1;
    sum = i;
  }
  return sum;
}
// NOTE: [[FILE]]:135:5: note: loop over 'it': pipelined MPI_Allreduce at line 137 (replicates 'a', 'b')
