// depends(...) may be given once per region; list all dependencies in it.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK: [[FILE]]:[[@LINE+1]]:37: error: clause 'depends' given twice
#pragma tucana region(a) depends(b) depends(c*)
  a[0] = 0;
}
