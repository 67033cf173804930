// A region pragma must stand in the body of a superblock loop. Outside one
// it is an error (not ignored), and the message says how to make the loop a
// superblock. MATE region pragmas only make a superblock of a 'for' loop.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: region 'compute' is outside any superblock; put '#pragma tucana superblock' before the enclosing 'for' loop
#pragma tucana compute
  a[0] = 1;

  int i = 0;
  while (i < n) {
    // CHECK: [[FILE]]:[[@LINE+1]]:1: error: region 'step' is outside any superblock; put '#pragma tucana superblock' before the enclosing 'for' loop
#pragma mate region(step)
    a[i++] = 0;
  }

  for (int j = 0; j < n; j++) {
    if (a[j] > 0) {
      // CHECK: [[FILE]]:[[@LINE+1]]:1: error: region 'send' is outside any superblock; put '#pragma tucana superblock' before the enclosing 'for' loop
#pragma toucan send
      a[j] = 0;
    }
  }
}
