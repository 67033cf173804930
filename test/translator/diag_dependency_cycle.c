// Dependencies within one iteration must not form a cycle (no region could
// ever run first). The message shows the cycle as a path of "depends on"
// edges. Previous-iteration dependencies (x*) do not count: the third
// superblock is fine.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: dependency cycle within one iteration: a -> b -> a
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a) depends(b)
    a[0] = i;
#pragma tucana region(b) depends(a)
    a[1] = i;
  }
  // In the MATE form the superblock starts at its 'for'.
  // CHECK: [[FILE]]:[[@LINE+1]]:3: error: dependency cycle within one iteration: x -> z -> y -> x
  for (int i = 0; i < n; i++) {
#pragma mate region(x) depends(z)
    a[0] = i;
#pragma mate region(y) depends(x)
    a[1] = i;
#pragma mate region(z) depends(y)
    a[2] = i;
  }
  // A region depending on itself in the same iteration.
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: dependency cycle within one iteration: self -> self
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(self) depends(self)
    a[0] = i;
  }
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a) depends(b*)
    a[0] = i;
#pragma tucana region(b) depends(a)
    a[1] = i;
  }
}
