// A pragma at file scope stands before no statement of a function body; it
// is not attached to the first statement of the next function.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

// CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana superblock' must be followed by a statement in a function body
#pragma tucana superblock
int global_counter;

void f(double *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = 0;
  }
}
