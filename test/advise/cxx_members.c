// C++ member functions (defined in the class and out of it, constructors
// too) are analyzed and rewritten like free functions. A member of the
// object (`this->x`, or `x` inside the class) is one object for all the
// instances of the class; a call of a member function on an object acts on
// that object. Templates are not analyzed, and say so.
//
// RUN: %tucana-cco check %s -- -x c++ -std=c++17 | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
// RUN: %tucana-cco rewrite --mpi %s -o %t.cpp -- -x c++ -std=c++17 | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: %if mpicc %{ %mpicc -x c++ -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -fsyntax-only -Wall -Wextra -Werror %t.cpp %}
#include <mpi.h>

class Solver {
 public:
  double sbuf[4], rbuf[4], total = 0, scale = 1;

  void step(int niter) {
    // CHECK: [[FILE]]:[[@LINE+2]]:5: note: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is safe to pipeline (replicates 'sbuf', 'rbuf')
    // NOTE: [[FILE]]:[[@LINE+1]]:5: note: loop over 'it': pipelined MPI_Allreduce at line [[@LINE+3]] (replicates 'sbuf', 'rbuf')
    for (int it = 0; it < niter; ++it) {
      fill(it);
      MPI_Allreduce(sbuf, rbuf, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      total += rbuf[0];
    }
  }
  void carried(int niter);
  void fill(int it) {
    for (int k = 0; k < 4; ++k) sbuf[k] = it + k;
  }
};

// Out of the class: After(i) writes a member Before(i+1) reads.
void Solver::carried(int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'scale' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    sbuf[0] = scale * it;
    MPI_Allreduce(sbuf, rbuf, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    scale = rbuf[0];
  }
}

// A member function called on another object: its effects are that object's.
void drive(Solver &s, Solver *p, int niter) {
  double x = 0, y = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'p' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    x = p->total;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    p->fill(it);
  }
  s.step(niter);
}

template <typename T> void generic(T *buf, int niter) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': MPI_Barrier at line [[@LINE+2]] cannot be pipelined: in the template 'generic': tucana-cco analyzes only code that is not a template (its types are not known)
  for (int it = 0; it < niter; ++it) {
    MPI_Barrier(MPI_COMM_WORLD);
    buf[0] = T(it);
  }
}
