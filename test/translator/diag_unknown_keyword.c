// The keyword after 'tucana', 'toucan' or 'mate' must be one that spelling
// has: tucana takes superblock, receive, send, compute and region(NAME);
// toucan the first four; mate only region(NAME).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma tucana' keyword 'bogus'; expected superblock, receive, send, compute or region(NAME)
#pragma tucana bogus
  a[0] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma toucan' keyword 'region'; expected superblock, receive, send or compute
#pragma toucan region(x)
  a[1] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:14: error: unknown '#pragma mate' keyword 'superblock'; expected region(NAME)
#pragma mate superblock
  a[2] = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma tucana' keyword '42'; expected superblock, receive, send, compute or region(NAME)
#pragma tucana 42
  a[3] = n;
}
