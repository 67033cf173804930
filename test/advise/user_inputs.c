// Inputs a user writes that the other tests do not: a loop header from a
// macro, a communication call through a macro (check analyzes them, rewrite
// refuses: it cannot edit a macro's expansion), a lambda in the loop body
// (its `return` does not leave the loop; its captures are the caller's
// variables), a range-for and a `while` loop with a counter (not counted
// loops), a loop in a header's inline function (not reported).
//
// RUN: %tucana-cco check %s -- -x c++ -std=c++17 -I %S/Inputs | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
// RUN: %tucana-cco rewrite --mpi %s -o %t.cpp -- -x c++ -std=c++17 -I %S/Inputs | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: %if mpicc %{ %mpicc -x c++ -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -fsyntax-only -Wall -Wextra -Werror -I %S/Inputs %t.cpp %}
#include <mpi.h>
#include "inline_loop.h"

#define FOR(i, n) for (int i = 0; i < (n); ++i)
#define SUM(a, b) MPI_Allreduce(&(a), &(b), 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)
double a, b, c[4];
double total(double x);

void f(int n) {
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is safe to pipeline (replicates 'a', 'b')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: MPI_Allreduce at line [[@LINE+3]]: the loop header is written through the macro 'FOR': tucana-cco cannot edit it
  FOR(it, n) {
    a = it;
    SUM(a, b);
    c[it % 4] = b;
  }
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is safe to pipeline (replicates 'a', 'b')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: MPI_Allreduce at line [[@LINE+3]]: the communication at line [[@LINE+3]] is written through the macro 'SUM': tucana-cco cannot edit it
  for (int it = 0; it < n; ++it) {
    a = it;
    SUM(a, b);
    c[it % 4] = b;
  }
  // The lambda writes 'a' (captured by reference), which Comm(i) sends: After(i-1) writes it.
  // CHECK: [[FILE]]:[[@LINE+2]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+8]] is not safe to pipeline: After(i-1) writes 'a' (line [[@LINE+9]]) which Comm(i) reads (line [[@LINE+8]]){{$|;}}
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: MPI_Allreduce at line [[@LINE+7]] is unsafe
  for (int it = 0; it < n; ++it) {
    auto g = [&](double x) {
      if (x < 0) return 0.0;
      return x * 2;
    };
    a = g(it);
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    [&]() { a = b; }();
    c[0] += a;
  }
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop: MPI_Allreduce at line [[@LINE+3]] cannot be pipelined: not a counted loop (a for loop with a loop variable)
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop: not rewritten: MPI_Allreduce at line [[@LINE+2]] is unsupported: not a counted loop
  for (double& x : c) {
    MPI_Allreduce(&x, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    a += b;
  }
  int step = 0;
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop: MPI_Allreduce at line [[@LINE+3]] cannot be pipelined: not a counted loop (a for loop with a loop variable)
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop: not rewritten: MPI_Allreduce at line [[@LINE+2]] is unsupported: not a counted loop
  while (step < n) {
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    c[2] += b + total(a);
    ++step;
  }
  inline_loop(n);
}
double total(double x) {
  double y = 0;
  // A callee's collective called in the while loop above: the note says where.
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: MPI_Allreduce at line [[@LINE+1]] cannot be pipelined: not in a loop ('total' is called in the loop at line 56, which is not a counted for loop)
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return y;
}
