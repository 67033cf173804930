// Dependencies within one iteration must not form a cycle (no region could
// ever run first). The error stands at the depends name that closes the
// cycle and shows the cycle as a path of "depends on" edges; a note stands
// at each other edge of the cycle. Previous-iteration dependencies (x*) do
// not count: the last superblock is fine. Each cycle of the file is
// reported in the same run.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: note: region 'a' depends on 'b' here
#pragma tucana region(a) depends(b)
    a[0] = i;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: dependency cycle within one iteration: a -> b -> a
#pragma tucana region(b) depends(a)
    a[1] = i;
  }
  // The MATE form, a cycle of three.
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:32: note: region 'x' depends on 'z' here
#pragma mate region(x) depends(z)
    a[0] = i;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:32: error: dependency cycle within one iteration: x -> z -> y -> x
#pragma mate region(y) depends(x)
    a[1] = i;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:32: note: region 'z' depends on 'y' here
#pragma mate region(z) depends(y)
    a[2] = i;
  }
  // A region depending on itself in the same iteration: no note.
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:37: error: dependency cycle within one iteration: self -> self
#pragma tucana region(self) depends(self)
    a[0] = i;
  }
  // The cycle is found among other dependencies, also in a { } block.
#pragma tucana superblock
  {
#pragma tucana region(p) depends()
    a[0] = 1;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:37: note: region 'q' depends on 'r' here
#pragma tucana region(q) depends(p, r)
    a[1] = 2;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:37: error: dependency cycle within one iteration: q -> r -> q
#pragma tucana region(r) depends(p, q)
    a[2] = 3;
  }
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a) depends(b*)
    a[0] = i;
#pragma tucana region(b) depends(a)
    a[1] = i;
  }
}
