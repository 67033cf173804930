// Two region pragmas before one statement: one error, at the second pragma,
// and no other. The superblock still has its three regions' pragmas, so it
// is not "missing" one, and the second pragma is inside the superblock, not
// outside it.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    // CHECK: [[FILE]]:[[@LINE+1]]:1: error: statement has two region pragmas ('receive' and 'send')
#pragma tucana send
    a[0] = i;
#pragma tucana compute
    a[1] = a[0];
  }
}
