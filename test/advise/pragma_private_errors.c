// `#pragma cco do private(...)`: malformed items and items that name no
// usable variable are errors at the item; nothing is written.
//
// RUN: rm -f %t.c
// RUN: not %tucana-cco check %s -- 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=error:
// RUN: not %tucana-cco rewrite --mpi %s -o %t.c -- 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=error:
// RUN: not test -e %t.c
#include <mpi.h>

double a[8], *p;
int n;

void f(int niter) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: expected '(' after 'private'
#pragma cco do private a
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:29: error: expected ']' in 'private(...)'
#pragma cco do private(p[0:n
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: expected a section 'name[lower:length]' in 'private(...)'
#pragma cco do private(p[4])
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:26: error: expected ',' or ')' in 'private(...)'
#pragma cco do private(a b)
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: 'private(q)': no variable 'q' is visible at the loop
#pragma cco do private(q)
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: 'private(p)': 'p' is a pointer: give the section of what it points to, 'p[lower:length]'
#pragma cco do private(p)
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: 'private(a[...])': 'a' is not a pointer: name the variable itself, without a section
#pragma cco do private(a[0:8])
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
  {
    int later = 0;
    (void)later;
  }
  // A local declared after the loop (or in a closed scope) is not visible.
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: 'private(later)': no variable 'later' is visible at the loop
#pragma cco do private(later)
  for (int i = 0; i < niter; ++i) MPI_Barrier(MPI_COMM_WORLD);
}
