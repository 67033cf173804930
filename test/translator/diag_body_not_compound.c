// The body of a superblock loop is a { } block of region statements; a loop
// whose body is a single statement is an error at that statement.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: the body of a superblock loop must be a { } block of regions
    a[i] = 0;
}
