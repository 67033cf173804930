// Superblocks cannot be nested lexically: a superblock inside a region of
// another is an error that names the outer one's line. (A superblock in a
// function called from a region is fine: see recursive_superblock.c.)
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
        a[j] += i;
      }
    }
  }
}
