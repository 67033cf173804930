// A superblock pragma on a statement that is not a loop or a block gets one
// error; the region pragmas inside that statement add none.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int c) {
  // CHECK: [[FILE]]:[[@LINE+1]]:16: error: '#pragma tucana superblock' must be followed by a loop ('for', 'while', 'do' or range 'for') or a { } block
#pragma tucana superblock
  if (c) {
#pragma tucana region(x)
    a[0] = 1;
#pragma tucana receive
    a[1] = 2;
  }
}
