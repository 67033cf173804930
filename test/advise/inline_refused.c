// Calls rewrite does not inline, each with the reason in the loop's note
// (and the output is the input with the cco pragmas blanked: nothing is
// pipelined). What inlining could change is refused, never guessed.
//
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --implicit-check-not=pipelined
#include <mpi.h>

#define N 8
static double a[N], b[N];
static int counter;
#define BUMP() (k += 1)

static void early_return(int it) {
  if (it < 0) return;
  MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void with_static(int it) {
  static int calls;
  calls += it;
  MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void macro_local(int it) {
  int k = it;
  BUMP();
  a[0] = k;
  MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void uses_counter(int it) {
  counter += it;
  MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void vla(int n) {
  double w[n];
  w[0] = a[0];
  b[0] = w[0];
  MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

void run(int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: {{.*}}'early_return' cannot be inlined: it returns before its end (line 14)
  for (int it = 0; it < niter; ++it) early_return(it);
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: {{.*}}'with_static' cannot be inlined: it has the static or extern local 'calls'
  for (int it = 0; it < niter; ++it) with_static(it);
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: {{.*}}'macro_local' cannot be inlined: its local 'k' is used inside the body of a macro (line 24)
  for (int it = 0; it < niter; ++it) macro_local(it);
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: {{.*}}'vla' cannot be inlined: the size of its array 'w' is computed at run time
  for (int it = 0; it < niter; ++it) vla(it + 1);
  // The caller declares 'counter' itself: the inlined text would see it.
  int counter = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: {{.*}}'uses_counter' cannot be inlined: it uses 'counter', which 'run' declares itself
  for (int it = 0; it < niter; ++it) uses_counter(it + counter);
}
