// A region cannot be a declaration: the variable would only exist in that
// region's case of the dispatch loop, not in the others. The message names
// the variable and says to declare it before the superblock. (A declaration
// inside a region's { } block is fine.)
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(load)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: a region cannot be a declaration (its variables would not be visible to the other regions); declare 'x' before the superblock
    double x = a[i], y = 2 * x;
#pragma tucana region(store) depends(load)
    {
      double z = a[i] + 1;
      a[i] = z;
    }
  }
}
