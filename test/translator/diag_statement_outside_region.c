// Inside a superblock every statement belongs to exactly one region: a
// region pragma applies to the one statement after it (use a { } block for
// more). A statement with no region pragma before it is an error; a stray
// ';' after a region's block is not a statement of its own (it is ignored).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: statement is not inside any region of the superblock; every statement of a superblock belongs to exactly one region
    a[0] = i;
#pragma tucana region(first)
    a[1] = i;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: statement is not inside any region of the superblock; every statement of a superblock belongs to exactly one region
    a[2] = i;
#pragma tucana region(second) depends(first)
    {
      a[3] = i;
      a[4] = i;
    };
  }
}
