// An annotation applies to the statement after it in the same { } block; a
// pragma with no statement after it (at the end of a block or of a
// function, or outside any function) is an error, not silently ignored.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

// CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana superblock' must be followed by a statement in a function body
#pragma tucana superblock
int global_counter;

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(only)
    {
      a[i] = 0;
      // CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana compute' must be followed by a statement in a function body
#pragma tucana compute
    }
    // CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma mate region' must be followed by a statement in a function body
#pragma mate region(last)
  }
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma toucan receive' must be followed by a statement in a function body
#pragma toucan receive
}
