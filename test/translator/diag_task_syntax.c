// Malformed task, taskwait and taskloop pragmas: each error at the token at
// fault, all of them in one run, no output.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(int n, int *a) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:21: error: unknown clause 'untied' in '#pragma tucana task'; expected depend(...), shared(...), priority(...), boundary or name(...)
#pragma tucana task untied
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:21: error: unknown clause 'grainsize' in '#pragma tucana task'; expected depend(...), shared(...), priority(...), boundary or name(...)
#pragma tucana task grainsize(2)
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:25: error: unknown clause 'depend' in '#pragma tucana taskloop'; expected num_tasks(...), grainsize(...), shared(...), priority(...), boundary or name(...)
#pragma tucana taskloop depend(in: n)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:25: error: unknown clause 'nowait' in '#pragma tucana taskwait'; this pragma takes no clauses
#pragma tucana taskwait nowait
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:28: error: expected in, out or inout in depend(...) in '#pragma tucana task'
#pragma tucana task depend(inoutset: n)
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:31: error: expected ':' after the dependence kind in '#pragma tucana task'
#pragma tucana task depend(in n)
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:39: error: expected an lvalue in depend(...) in '#pragma tucana task'
#pragma tucana task depend(out: a[0], )
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:37: error: expected ')' closing depend(...) in '#pragma tucana task'
#pragma tucana task depend(out: a[0]
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:38: error: expected ']' after an array section's length (strided sections are not allowed in depend) in '#pragma tucana task'
#pragma tucana task depend(out: a[0:8:2])
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:26: error: expected a string literal in name(...) in '#pragma tucana task'
#pragma tucana task name(first)
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:28: error: expected '(' after shared in '#pragma tucana task'
#pragma tucana task shared n
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:28: error: expected a variable name in '#pragma tucana task'
#pragma tucana task shared(1)
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:30: error: expected an expression in '#pragma tucana task'
#pragma tucana task priority()
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:30: error: clause 'boundary' given twice
#pragma tucana task boundary boundary
  n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:38: error: num_tasks(...) and grainsize(...) cannot both be given
#pragma tucana taskloop num_tasks(2) grainsize(4)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:38: error: clause 'num_tasks' given twice
#pragma tucana taskloop num_tasks(2) num_tasks(4)
  for (int i = 0; i < n; i++) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:37: error: extra text after '#pragma tucana task'
#pragma tucana task depend(in: a[0]), boundary
  n++;
}
