// '#pragma bamboo priority(N)' sets the priority of an olap region: it must
// stand inside one or right before one (bamboo_priority.c). Anywhere else,
// a loop without olap included, it is an error.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma bamboo priority' must stand inside an olap region or right before one
#pragma bamboo priority(3)
  a[5] = 1;
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma bamboo priority' must stand inside an olap region or right before one
#pragma bamboo priority(2)
    a[i] = 0;
  }
}
