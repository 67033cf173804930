// The keyword after 'tucana', 'toucan', 'mate' or 'bamboo' must be one that
// spelling has: tucana takes superblock, receive, send, compute and
// region(NAME); toucan the first four; mate only region(NAME); bamboo olap,
// receive, send and priority(N). Every such error is reported in one run.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma tucana' keyword 'bogus'; expected superblock, receive, send, compute, region(NAME), shared, task, taskwait or taskloop
#pragma tucana bogus
  a[0] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma toucan' keyword 'region'; expected superblock, receive, send, compute, task, taskwait or taskloop
#pragma toucan region(x)
  a[1] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:14: error: unknown '#pragma mate' keyword 'superblock'; expected region(NAME)
#pragma mate superblock
  a[2] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma tucana' keyword '42'; expected superblock, receive, send, compute, region(NAME), shared, task, taskwait or taskloop
#pragma tucana 42
  a[3] = n;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma bamboo' keyword 'compute'; expected olap, receive, send or priority(N)
#pragma bamboo compute
  a[4] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma bamboo' keyword 'superblock'; expected olap, receive, send or priority(N)
#pragma bamboo superblock
  a[5] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: unknown '#pragma tucana' keyword 'olap'; expected superblock, receive, send, compute, region(NAME), shared, task, taskwait or taskloop
#pragma tucana olap
  a[6] = 0;
}
