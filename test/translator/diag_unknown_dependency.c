// depends(...) may only name regions of the same superblock; an unknown
// name (a typo, or a region of another superblock) is an error at the name.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(halo)
    a[0] = i;
    // CHECK: [[FILE]]:[[@LINE+1]]:41: error: depends names unknown region 'hallo'
#pragma tucana region(interior) depends(hallo, interior*)
    a[1] = i;
    // CHECK: [[FILE]]:[[@LINE+1]]:45: error: depends names unknown region 'update'
#pragma mate region(boundary) depends(halo, update*)
    a[2] = i;
  }
}
