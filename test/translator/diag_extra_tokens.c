// Text after a complete pragma that is not a clause name is an error.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK: [[FILE]]:[[@LINE+1]]:24: error: extra text after '#pragma tucana compute'
#pragma tucana compute (
  a[0] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:27: error: extra text after '#pragma tucana superblock'
#pragma tucana superblock 3
  for (int i = 0; i < 1; i++) {
  }
  // CHECK: [[FILE]]:[[@LINE+1]]:36: error: extra text after '#pragma tucana region'
#pragma tucana region(a) depends(b);
  a[1] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:23: error: extra text after '#pragma mate region'
#pragma mate region(a), depends(b)
  a[2] = 0;
}
