// A task that calls a lambda held in a local variable: the variable's type
// (the lambda's closure type) cannot be named by the outlined function, an
// error at the use (the translator aborted on the lambda's call operator).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning:
// RUN: not test -e %t.out

long run(long *out) {
  auto weight = [](long x) { return x * 3 + 1; };
#pragma tucana task
  // CHECK: [[FILE]]:[[@LINE+1]]:10: error: 'weight' has type 'a lambda's closure type', declared inside the function, which the task's outlined function cannot name; declare the type at file scope
  *out = weight(2);
#pragma tucana taskwait
  return *out;
}
