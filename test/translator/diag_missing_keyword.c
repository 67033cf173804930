// A bare '#pragma tucana' (or toucan, mate, bamboo) is an error that lists the
// keywords of that spelling.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: error: '#pragma tucana' needs a keyword; expected superblock, receive, send, compute, region(NAME), shared, task, taskwait or taskloop
#pragma tucana
  a[0] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: error: '#pragma mate' needs a keyword; expected region(NAME)
#pragma mate
  a[1] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: error: '#pragma bamboo' needs a keyword; expected olap, receive, send or priority(N)
#pragma bamboo
  a[2] = 0;
}
