// Malformed '#pragma cco' lines are errors with the position of the bad
// token; every error of the file is reported in one run, the exit status is
// 1 and no output is written.
//
// RUN: rm -f %t.c
// RUN: not %tucana-cco check %s -- 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=error:
// RUN: not %tucana-cco rewrite --mpi %s -o %t.c -- 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=error:
// RUN: not test -e %t.c
#include <mpi.h>

void f(double *x, int n);
int g;

// CHECK-DAG: [[FILE]]:[[@LINE+1]]:13: error: unknown '#pragma cco' keyword 'doo': expected 'do', 'ignore' or 'override'
#pragma cco doo
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:20: error: extra tokens after '#pragma cco ignore'
#pragma cco ignore now
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:22: error: expected a function name after '#pragma cco override'
#pragma cco override (f)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'modifies' in '#pragma cco override': expected reads(...) or writes(...)
#pragma cco override f modifies(x)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:33: error: duplicate 'reads' clause in '#pragma cco override'
#pragma cco override f reads(x) reads(n)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:30: error: expected a parameter name, a parameter position or a global variable in 'reads(...)'
#pragma cco override f reads(*x)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:33: error: expected ',' or ')' in 'writes(...)'
#pragma cco override f writes(x n)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:30: error: expected a parameter position (1, 2, ...), got '0'
#pragma cco override f reads(0)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:22: error: '#pragma cco override': no function 'h' is declared in this file
#pragma cco override h reads(x)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:30: error: '#pragma cco override': 'y' is neither a parameter of 'f' nor a global variable
#pragma cco override f reads(y) writes(g)
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: '#pragma cco override': 'f' has 2 parameters, not 3
#pragma cco override f writes(1, 3)

void loop(double *x, int n) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: error: '#pragma cco do' must be followed by a for, while or do loop
#pragma cco do
  x[0] = 1;
  for (int i = 0; i < n; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: error: '#pragma cco ignore' must be followed by a statement in a function body
#pragma cco ignore
}
