// Malformed region(NAME) and depends(...) clauses: the error points at the
// token where something else was expected and says what.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK: [[FILE]]:[[@LINE+1]]:23: error: expected '(' and a region name in '#pragma tucana region'
#pragma tucana region x
  a[0] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:23: error: expected a region name in '#pragma tucana region'
#pragma tucana region()
  a[1] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:23: error: expected ')' after the region name in '#pragma mate region'
#pragma mate region(a b)
  a[2] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:34: error: expected '(' after depends in '#pragma tucana region'
#pragma tucana region(a) depends b
  a[3] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:36: error: expected ',' or ')' in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(b c)
  a[4] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:34: error: expected a region name in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(, b)
  a[5] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:36: error: expected a region name in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(b,)
  a[6] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:34: error: expected a region name in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(*b)
  a[7] = 0;
}
