// One statement, one region: two region pragmas before the same statement
// are an error at the second one.
// (The errors that follow from it are bug reports in
// diag_two_region_pragmas_no_cascade.c; here only this one is checked.)
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=warning:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a)
    // CHECK: [[FILE]]:[[@LINE+1]]:1: error: statement has two region pragmas ('a' and 'b')
#pragma tucana region(b)
    a[0] = i;
  }
}
