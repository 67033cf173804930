// A task's statement (a taskloop's body) runs as a function of its own:
// return, goto out of it (or into it), break or continue that would leave
// it, and a case label of a switch outside it are errors. Loops and switches inside it may use break and continue, a goto
// to a label inside it is fine, and a taskloop body may continue (the next
// iteration).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

int f(int n, int *a) {
  for (int k = 0; k < n; k++) {
#pragma tucana task
    {
      // CHECK-DAG: [[FILE]]:[[@LINE+1]]:17: error: 'break' cannot leave a task's statement (it runs as a function of its own)
      if (a[k]) break;
      for (int j = 0; j < n; j++)
        if (a[j]) break;  // fine: its own loop
      switch (n) {
        case 1: break;  // fine: its own switch
      }
    }
#pragma tucana task
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: 'continue' cannot leave a task's statement (it runs as a function of its own)
    continue;
  }
#pragma tucana task
  {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:12: error: 'return' cannot leave a task's statement (it runs as a function of its own)
    if (n) return 1;
  }
#pragma tucana task
  {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:12: error: 'goto' cannot leave a task's statement (it runs as a function of its own)
    if (n) goto done;
  again:
    if (--a[0] > 0) goto again;  // fine: a label inside
  }
#pragma tucana taskloop
  for (int i = 0; i < n; i++) {
    if (a[i] < 0) continue;  // fine: the next iteration
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:15: error: 'break' cannot leave a taskloop's body (it runs as a function of its own)
    if (a[i]) break;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: 'return' cannot leave a taskloop's body (it runs as a function of its own)
    return 2;
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:10: error: 'goto' into a task's statement (it runs as a function of its own)
  if (n) goto inside;
#pragma tucana task
  {
  inside:
    a[0] = 1;
  }
  switch (n) {
#pragma tucana task
    {
      // CHECK-DAG: [[FILE]]:[[@LINE+1]]:7: error: 'case' label of a switch outside a task's statement (the switch would jump into code that runs as a function of its own)
      case 1:
        a[1] = 1;
    }
  }
done:
  return 0;
}
