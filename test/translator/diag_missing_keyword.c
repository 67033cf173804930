// A bare '#pragma tucana' (or toucan, mate) is an error that lists the
// keywords of that spelling.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK: [[FILE]]:[[@LINE+1]]:9: error: '#pragma tucana' needs a keyword; expected superblock, receive, send, compute or region(NAME)
#pragma tucana
  a[0] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:9: error: '#pragma mate' needs a keyword; expected region(NAME)
#pragma mate
  a[1] = 0;
}
