// Malformed region(NAME), depends(...), role(...) and priority(...): the
// error points at the token where something else was expected and says
// what. Every one of them is reported in the same run.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:23: error: expected '(' and a region name in '#pragma tucana region'
#pragma tucana region x
  a[0] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:23: error: expected a region name in '#pragma tucana region'
#pragma tucana region()
  a[1] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:23: error: expected ')' after the region name in '#pragma mate region'
#pragma mate region(a b)
  a[2] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: expected '(' after depends in '#pragma tucana region'
#pragma tucana region(a) depends b
  a[3] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:36: error: expected ',' or ')' in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(b c)
  a[4] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: expected a region name in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(, b)
  a[5] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:36: error: expected a region name in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(b,)
  a[6] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: expected a region name in depends(...) in '#pragma tucana region'
#pragma tucana region(a) depends(*b)
  a[7] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:31: error: expected '(' after role in '#pragma tucana region'
#pragma tucana region(a) role receive
  a[8] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:31: error: expected receive, send, compute or any in role(...) in '#pragma tucana region'
#pragma tucana region(a) role(sender)
  a[9] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: expected ')' after the role in '#pragma mate region'
#pragma mate region(a) role(send any)
  a[10] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:33: error: expected '(' after priority in '#pragma tucana compute'
#pragma tucana compute priority 3
  a[11] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:33: error: expected an expression in '#pragma tucana compute'
#pragma tucana compute priority()
  a[12] = 0;
  // The expression runs to the matching ')'; the line ends first here.
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:33: error: expected ')' closing the expression in '#pragma tucana send'
#pragma tucana send priority((1)
  a[13] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: expected '(' after priority in '#pragma bamboo priority'
#pragma bamboo priority
  a[14] = 0;
}
