// rewrite --tucana with two statements on one line (`a += y; b += 2 * y;`):
// the second one's region pragma starts a line of its own (a pragma in the
// middle of a line is a "stray '#'"), followed by a #line directive that
// gives the statement its line in the input.
//
// RUN: %tucana-cco rewrite --tucana %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: grep -v "CHECK\|NOTE" %t.c | FileCheck %s -DFILE=%s
// RUN: %if mpicc %{ %mpicc -fsyntax-only -Wno-unknown-pragmas %t.c %}
#include <mpi.h>

double a, b;

void twice(int niter) {
  double x = 0, y = 0;
  // NOTE: [[FILE]]:[[@LINE+9]]:3: note: loop over 'it': annotated for Tucana: MPI_Allreduce at line [[@LINE+11]] (regions wait instead of replicating 'x', 'y')
  // CHECK: #pragma tucana region(cco_comm1) depends(cco_before1, cco_after2*)
  // CHECK-NEXT: MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // CHECK-NEXT: #pragma tucana region(cco_after1) depends(cco_comm1, cco_after2*)
  // CHECK-NEXT: {{^}}    a += y;{{ *$}}
  // CHECK-NEXT: {{^}}#pragma tucana region(cco_after2) depends(cco_after1)
  // CHECK-NEXT: {{^}}#line [[@LINE+6]] "[[FILE]]"
  // CHECK-NEXT: {{^}}            b += 2 * y;
  // CHECK-NEXT: {{^}}  }
  for (int it = 0; it < niter; ++it) {
    x = it;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    a += y; b += 2 * y;
  }
}
