// Compiler messages about a task's code name the original file and line:
// the moved statement is preceded by a #line, the statement's lines stay in
// the parent (empty), and the spawn takes only the pragma's line. Checked
// with the host compiler's warnings on the translated file. (The Toucan
// spelling of the task pragmas is accepted too.)
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: %cc -fsyntax-only -Wall %mpi-flags %t.c 2>&1 | FileCheck %s -DFILE=%s

void f(int n, int *out) {
#pragma tucana task
  {
    out[0] = n;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: warning: unused variable 'inside' [-Wunused-variable]
    int inside = n;
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:7: warning: unused variable 'after_task' [-Wunused-variable]
  int after_task = n;
#pragma toucan taskloop
  for (int i = 0;
       i < n;
       i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: warning: unused variable 'in_body' [-Wunused-variable]
    int in_body = i;
    out[i] = i;
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:7: warning: unused variable 'after_loop' [-Wunused-variable]
  int after_loop = n;
#pragma toucan taskwait
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:7: warning: unused variable 'after_wait' [-Wunused-variable]
  int after_wait = n;
}
