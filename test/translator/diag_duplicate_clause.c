// Each clause may be given once per pragma: depends(...) lists all the
// dependencies, role(...) and priority(...) take one value.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:37: error: clause 'depends' given twice
#pragma tucana region(a) depends(b) depends(c*)
  a[0] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:37: error: clause 'role' given twice
#pragma tucana region(a) role(send) role(any)
  a[1] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:39: error: clause 'priority' given twice
#pragma tucana superblock priority(1) priority(2)
  for (;;) {
  }
}
