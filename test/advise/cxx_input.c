// C++ input (the file is compiled as C++ with -x c++): the analysis and the
// rewrite work the same, and the output is valid C++.
//
// RUN: %tucana-cco check %s -- -x c++ -std=c++17 | FileCheck %s -DFILE=%s
// RUN: %tucana-cco rewrite --mpi %s -o %t.cpp -- -x c++ -std=c++17 | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: %if mpicc %{ %mpicc -x c++ -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -fsyntax-only -Wall -Wextra -Werror %t.cpp %}
#include <mpi.h>
#include <vector>

static std::vector<double> work(16);

static void scale(std::vector<double> &v, double f) {
  for (double &x : v) x *= f;
}

double run(double *sbuf, double *rbuf, int n) {
  double s = 0;
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is safe to pipeline (replicates 'sbuf', 'rbuf')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Allreduce at line [[@LINE+3]] (replicates 'sbuf', 'rbuf')
  for (int it = 0; it < n; ++it) {
    sbuf[0] = it;
    MPI_Allreduce(sbuf, rbuf, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    s += rbuf[0];
  }
  scale(work, s);
  return s;
}
