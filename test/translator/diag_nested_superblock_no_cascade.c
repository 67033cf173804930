// A superblock nested in another gets one error, the nesting. Its region
// pragmas are inside a superblock (the inner one), so they are not also
// reported as "outside any superblock".
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(outer)
    {
      // CHECK: [[FILE]]:[[@LINE+1]]:1: error: superblocks cannot be nested; this superblock is inside the superblock at line [[#@LINE-4]]
#pragma tucana superblock
      for (int j = 0; j < n; j++) {
#pragma tucana region(inner)
        a[j] += i;
      }
    }
#pragma tucana region(outer_mate) depends(outer)
    {
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: superblocks cannot be nested; this superblock is inside the superblock at line [[#@LINE-13]]
      for (int j = 0; j < n; j++) {
#pragma mate region(inner_mate)
        a[j] -= i;
      }
    }
  }
}
