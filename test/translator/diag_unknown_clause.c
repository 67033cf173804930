// Clauses the pragma does not take are errors: receive, send, compute and
// superblock take none; region(NAME) takes depends(...).
// priority(expr) is listed in SPEC.md but not implemented yet, and
// docs/annotations.md shows this very error for it; when it is implemented,
// drop that case here and the XFAIL of priority_clause.c.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'extra' in '#pragma tucana receive'; this pragma takes no clauses
#pragma tucana receive extra
  a[0] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:27: error: unknown clause 'nowait' in '#pragma toucan superblock'; this pragma takes no clauses
#pragma toucan superblock nowait
  for (int i = 0; i < 1; i++) {
  }
  // CHECK: [[FILE]]:[[@LINE+1]]:26: error: unknown clause 'priority' in '#pragma tucana region'; expected depends(...)
#pragma tucana region(x) priority(3)
  a[1] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:36: error: unknown clause 'colour' in '#pragma tucana region'; expected depends(...)
#pragma tucana region(x) depends() colour(3)
  a[3] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:34: error: unknown clause 'after' in '#pragma mate region'; expected depends(...)
#pragma mate region(y) depends() after(x)
  a[2] = 0;
}
