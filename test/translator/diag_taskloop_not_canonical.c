// A taskloop's for loop must be in canonical form (its trip count is
// computed before the loop runs): 'T i = START' or 'i = START', i compared
// with <, <=, >, >= or != to a bound, i stepped by ++, --, += S, -= S or
// i = i + S, an integer loop variable that the body does not change. Each
// error names what is wrong, at it.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#define HEADER(v, n) for (int v = 0; v < (n); v++)

void f(int n, int x, int *a) {
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:19: error: taskloop: the condition must compare 'i' with <, <=, >, >= or != to a bound
#pragma tucana taskloop
  for (int i = 0; i * 2 < n; i++) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:26: error: taskloop: the increment must be i++, ++i, i--, --i, i += S, i -= S or i = i + S
#pragma tucana taskloop
  for (int i = 1; i < n; i *= 2) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:26: error: taskloop: the increment counts down but the condition 'i < ...' expects it to count up
#pragma tucana taskloop
  for (int i = 0; i < n; i--) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:27: error: taskloop: the increment counts up but the condition 'i >= ...' expects it to count down
#pragma tucana taskloop
  for (int i = n; i >= 0; ++i) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:15: error: taskloop: the loop variable 'd' must have an integer type
#pragma tucana taskloop
  for (double d = 0; d < n; d++) a[0]++;
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:27: error: taskloop: with '!=' the increment must be i++, ++i, i-- or --i
#pragma tucana taskloop
  for (int i = 0; i != n; i += 2) a[i] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:35: error: taskloop: the loop variable 'i' is modified in the body (the iterations are split into tasks)
#pragma tucana taskloop
  for (int i = 0; i < n; i++) { i += 1; }
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:8: error: taskloop: the initialization must be 'T i = START' or 'i = START' (one loop variable)
#pragma tucana taskloop
  for (int i = 0, j = 0; i < n; i++) a[i] = j;
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:7: error: taskloop: the initialization must be 'T i = START' or 'i = START' (one loop variable)
#pragma tucana taskloop
  for (; x < n; x++) a[x] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+3]]:3: error: taskloop: the initialization of the loop comes from a macro; write the loop header out
  // CHECK-DAG: [[FILE]]:11:35: note: expanded from macro 'HEADER'
#pragma tucana taskloop
  HEADER(i, n) a[i] = 0;
}
