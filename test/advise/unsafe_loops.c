// Loops that must not be pipelined, each with the dependence (or the jump,
// or the unknown call) that blocks it and the lines of both statements.
// Nothing is rewritten: the output is the input (less nothing: no pragma).
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: diff %s %t.c
#include <mpi.h>

#define N 32
double u[N + 2], halo[2], edge[2];
void external_work(double *x);

// A stencil: After(i) writes the array Before(i+1) reads.
void stencil(int niter, int left) {
  // CHECK: [[FILE]]:[[@LINE+2]]:3: warning: loop over 'it': MPI_Sendrecv at line [[@LINE+4]] is not safe to pipeline: After(i) writes 'u' (line [[@LINE+5]]) which Before(i+1) reads (line [[@LINE+3]])
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: MPI_Sendrecv at line [[@LINE+3]] is unsafe: After(i) writes 'u'
  for (int it = 0; it < niter; ++it) {
    edge[0] = u[1];
    MPI_Sendrecv(edge, 1, MPI_DOUBLE, left, 0, halo, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int k = 1; k <= N; ++k) u[k] = 0.5 * (u[k - 1] + u[k + 1]) + halo[0];
  }
}

// A scalar carried across iterations: After(i) writes 'scale', Before(i+1) reads it.
void carried(int niter) {
  double scale = 1;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'scale' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    edge[0] = scale * it;
    MPI_Allreduce(edge, halo, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    scale = halo[0];
  }
}

// A function without a body: its side effects are unknown.
void unknown(int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: unknown side effects of 'external_work' (line [[@LINE+2]]): give it a body or a '#pragma cco override'
  for (int it = 0; it < niter; ++it) {
    external_work(edge);
    MPI_Allreduce(edge, halo, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

// A break leaves the loop after any iteration.
void leaves(int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: 'break' at line [[@LINE+4]] leaves the loop
  for (int it = 0; it < niter; ++it) {
    edge[1] = it;
    MPI_Allreduce(edge, halo, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (halo[0] > 100) break;
  }
}

// Not pipelined for other reasons: no counted loop, no loop.
void others(int n) {
  int k = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop: MPI_Barrier at line [[@LINE+2]] cannot be pipelined: not a counted loop (a for loop with a loop variable)
  while (k++ < n) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // A blocking call inside an `if`: the `if` is Comm(i) (check gives the
  // verdict; rewrite refuses Comm of nested statements).
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'i': MPI_Barrier at line [[@LINE+3]] is safe to pipeline
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'i': not rewritten: MPI_Barrier at line [[@LINE+2]]: Comm(i) is made of nested statements (lines [[@LINE+2]]-[[@LINE+2]]): tucana-cco rewrites only
  for (int i = 0; i < n; ++i) {
    if (i % 2) MPI_Barrier(MPI_COMM_WORLD);
  }
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: MPI_Bcast at line [[@LINE+1]] cannot be pipelined: not in a loop
  MPI_Bcast(edge, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

// The loop variable written in the body; the loop condition reading what
// After writes; a buffer declared in the body.
void header(int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+2]] is not safe to pipeline: the loop variable 'it' is written in the body (line [[@LINE+3]])
  for (int it = 0; it < niter; ++it) {
    MPI_Allreduce(edge, halo, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    it += (int)halo[0];
  }
  int done = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+2]] is not safe to pipeline: After(i) writes 'done' (line [[@LINE+3]]) which the loop header of iteration i+1 reads (line [[@LINE+1]])
  for (int it = 0; it < niter && !done; ++it) {
    MPI_Allreduce(edge, halo, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    done = halo[0] > 1;
  }
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: buffer 'local' (line [[@LINE+3]]) is declared in the loop body: it would not outlive the iteration while Comm(i) is in flight
  for (int it = 0; it < niter; ++it) {
    double local = it;
    MPI_Allreduce(&local, halo, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

// MPI_IN_PLACE: the receive buffer is read too, so After(i-1) writing it is a true dependence.
void in_place(int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i-1) writes 'halo' (line [[@LINE+4]]) which Comm(i) reads (line [[@LINE+3]])
  for (int it = 0; it < niter; ++it) {
    edge[0] = it;
    MPI_Allreduce(MPI_IN_PLACE, halo, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    halo[1] = 0;
  }
}

// A barrier that keeps the messages of consecutive iterations apart: the
// point-to-point calls of Before(i+1) must not run while it is in flight.
void barrier_orders(int niter, int dst, int src) {
  // CHECK: [[FILE]]:[[@LINE+2]]:3: warning: loop over 'it': MPI_Send at line [[@LINE+3]] is not safe to pipeline: After(i-1) sends or receives (line [[@LINE+5]]) while Comm(i) (line [[@LINE+3]]) is in flight: the messages could match differently
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Barrier at line [[@LINE+4]] is not safe to pipeline: Before(i+1) sends or receives (line [[@LINE+2]]) while Comm(i) (line [[@LINE+4]]) is in flight: the messages could match differently
  for (int it = 0; it < niter; ++it) {
    MPI_Send(edge, 1, MPI_DOUBLE, dst, 0, MPI_COMM_WORLD);
    MPI_Recv(halo, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
