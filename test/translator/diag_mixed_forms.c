// A superblock uses either the receive/send/compute form (default graph) or
// named regions with depends clauses (explicit graph), not both.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: superblock mixes the receive/send/compute form with named regions
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    a[0] = i;
#pragma tucana send
    a[1] = i;
#pragma tucana region(extra) depends(send)
    a[2] = i;
  }
  // The MATE spelling in a Toucan superblock mixes forms too.
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: superblock mixes the receive/send/compute form with named regions
#pragma toucan superblock
  for (int i = 0; i < n; i++) {
#pragma mate region(pack)
    a[0] = i;
#pragma toucan compute
    a[1] = i;
  }
}
