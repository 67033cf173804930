// A superblock loop with an empty body has no region to run: an error.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(int n) {
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: superblock has no regions
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
  }
}
