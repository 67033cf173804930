// An annotation applies to the statement after it in the same { } block; a
// pragma with no statement after it (at the end of a block or of a
// function) is an error, not silently ignored. All of them are reported in
// one run.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(only)
    {
      a[i] = 0;
      // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana compute' must be followed by a statement in a function body
#pragma tucana compute
    }
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma mate region' must be followed by a statement in a function body
#pragma mate region(last)
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma toucan receive' must be followed by a statement in a function body
#pragma toucan receive
}
