// A named region is a part of a superblock's graph: outside any superblock
// it is an error (not ignored). When a loop holds it, the message says to
// make that loop a superblock; otherwise it says where the superblock
// pragma goes. (Receive, send and compute blocks outside a superblock are
// blocks in called functions: see callee_blocks.c.) MATE region pragmas
// make a superblock of any loop whose body they stand in (see
// superblock_shapes.c), but not of a loop further out.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: region 'first' is outside any superblock; a named region is a part of a superblock's graph; put the superblock pragma before the loop or { } block that holds its regions
#pragma tucana region(first)
  a[0] = 1;

  int i = 0;
  while (i < n) {
    if (a[i] > 0) {
      // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: region 'step' is outside any superblock; put '#pragma tucana superblock' before the loop at line [[#@LINE-2]]
#pragma tucana region(step)
      a[i] = 0;
    }
    i++;
  }

  for (int j = 0; j < n; j++) {
    for (int k = 0; k < n; k++)
      if (a[k] > 0) {
        // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: region 'inner' is outside any superblock; put '#pragma tucana superblock' before the loop at line [[#@LINE-2]]
#pragma mate region(inner)
        a[k] = 0;
      }
  }
}
