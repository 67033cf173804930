// Calls of the C++ standard library are summarized by what they act on
// (their object: a const member function reads it, another one reads and
// writes it; what a reference or pointer parameter refers to), not by
// descending into the library's internals; and each reason is given once,
// with the lines of every statement it comes from.
//
// RUN: %tucana-cco check %s -- -x c++ -std=c++17 | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
#include <mpi.h>
#include <vector>

void timer_start(int t);
void timer_stop(int t);

static void phase(int t) {
  timer_start(t);
  timer_stop(t);
}

std::vector<double> history;

// push_back in After: the vector is written; nothing from <vector>'s internals.
void record(int niter) {
  double x = 0, y = 0;
  std::vector<double> log;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is safe to pipeline (replicates 'x', 'y')
  for (int it = 0; it < niter; ++it) {
    x = it;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    log.push_back(y);
    history.push_back(y);
  }
}

// Before(i+1) reads the size of what After(i) appends to: a dependence.
void sized(int niter) {
  double x = 0, y = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'history' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]]){{$}}
  for (int it = 0; it < niter; ++it) {
    x = history.size() + history[0];
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    history.push_back(y);
  }
}

// An unknown function called five times: one reason, with its lines.
void timed(int niter) {
  double x = 0, y = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+6]] is not safe to pipeline: unknown side effects of 'timer_start' (lines [[@LINE+2]], [[@LINE+5]], [[@LINE+7]], [[@LINE+8]]): give it a body or a '#pragma cco override'; unknown side effects of 'timer_stop' (lines [[@LINE+3]], [[@LINE+5]], [[@LINE+7]]): give it a body or a '#pragma cco override'{{$}}
  for (int it = 0; it < niter; ++it) {
    timer_start(1);
    timer_stop(1);
    x = it;
    phase(2);
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    phase(3);
    timer_start(4);
  }
}
