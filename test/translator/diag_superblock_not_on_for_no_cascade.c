// A superblock pragma on a while loop gets one error; the region pragmas in
// that loop's body are not also reported as "outside any superblock" (with
// advice to add the superblock pragma the user already wrote).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  int i = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana superblock' must be followed by a 'for' loop
#pragma tucana superblock
  while (i < n) {
#pragma tucana compute
    a[i++] = 1;
  }
}
