// A superblock loop needs a loop variable set in its first clause (declared
// there, 'for (int i = 0; ...)', or assigned, 'for (i = 0; ...)'): each
// region keeps its own copy of it. 'for (;;)', a declaration without an
// initializer, or another expression are errors.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  int i = 0;
#pragma tucana superblock
  // CHECK: [[FILE]]:[[@LINE+1]]:3: error: a superblock loop needs a loop variable initialized in its first clause, e.g. 'for (int i = 0; ...; ...)'
  for (;;) {
#pragma tucana region(step)
    a[i++] = 0;
  }
#pragma tucana superblock
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: a superblock loop needs a loop variable initialized in its first clause, e.g. 'for (int i = 0; ...; ...)'
  for (int j; i < n; i++) {
#pragma tucana region(step)
    a[i] = 1;
  }
#pragma tucana superblock
  // CHECK: [[FILE]]:[[@LINE+1]]:8: error: a superblock loop needs a loop variable initialized in its first clause, e.g. 'for (int i = 0; ...; ...)'
  for (i++; i < n; i++) {
#pragma tucana region(step)
    a[i] = 2;
  }
}
