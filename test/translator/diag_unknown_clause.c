// Clauses a pragma does not take are errors: receive, send and superblock
// take priority(...) only, compute priority(...) and split(...);
// region(NAME) takes depends(...), role(...), priority(...) and split(...);
// the Toucan and Bamboo spellings take no
// clauses (Bamboo's priority is a pragma of its own). Every such error of
// the file is reported in one run.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'extra' in '#pragma tucana receive'; expected priority(...)
#pragma tucana receive extra
  a[0] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:27: error: unknown clause 'nowait' in '#pragma tucana superblock'; expected priority(...)
#pragma tucana superblock nowait
  for (int i = 0; i < 1; i++) {
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:27: error: unknown clause 'nowait' in '#pragma toucan superblock'; this pragma takes no clauses
#pragma toucan superblock nowait
  for (int i = 0; i < 1; i++) {
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'priority' in '#pragma toucan compute'; this pragma takes no clauses
#pragma toucan compute priority(2)
  a[1] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'depends' in '#pragma bamboo receive'; this pragma takes no clauses
#pragma bamboo receive depends(x)
  a[2] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:36: error: unknown clause 'colour' in '#pragma tucana region'; expected depends(...), role(...), priority(...) or split(...)
#pragma tucana region(x) depends() colour(3)
  a[3] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: unknown clause 'after' in '#pragma mate region'; expected depends(...), role(...), priority(...) or split(...)
#pragma mate region(y) depends() after(x)
  a[4] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'depends' in '#pragma tucana compute'; expected priority(...) or split(...)
#pragma tucana compute depends(x)
  a[5] = 0;
}
