// An olap region overlaps its receive and send blocks with computation:
// without any '#pragma bamboo receive' or '#pragma bamboo send' block there
// is nothing to overlap, and that is an error at the olap pragma (on a loop,
// or on a { } block that runs once).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: olap region has no '#pragma bamboo receive' or '#pragma bamboo send' block
#pragma bamboo olap
  for (int i = 0; i < n; i++) {
    a[0] = i;
    a[1] = i;
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: olap region has no '#pragma bamboo receive' or '#pragma bamboo send' block
  #pragma bamboo olap
  {
    a[0] = 1;
  }
}
