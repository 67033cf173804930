// A superblock loop may declare one loop variable only: the regions each
// keep a copy of it, one value per iteration.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: a superblock loop may declare only one loop variable
  for (int i = 0, j = n - 1; i < j; i++, j--) {
#pragma tucana region(swap)
    {
      double t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
