// What a task's outlined function cannot name: a variable-length array, a
// local of a type declared inside the function, a type or enumerator
// declared inside the function, a static local of the function; a shared
// variable named in a macro's body (C rewrites each use of a shared
// variable, and cannot inside a macro); a shared(...) name that is no
// variable; a declaration as the task (its name would not be visible after).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#define BUMP_TOTAL() total += 1
#define BUMP(x) x += 1

int f(int n) {
  typedef struct {
    int v;
  } local_t;
  struct point {
    int x, y;
  };
  enum { RED, GREEN };
  static int calls;
  local_t box = {1};
  struct point pt = {1, 2};
  int vla[n];
  int total = 0;
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: 'vla' has a variable-length array type (or points to one) and cannot be captured by a task; pass a plain pointer to its first element
  vla[0] = 1;
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: 'box' has type 'local_t', declared inside the function, which the task's outlined function cannot name; declare the type at file scope
  box.v++;
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: 'pt' has type 'point', declared inside the function, which the task's outlined function cannot name; declare the type at file scope
  pt.x++;
#pragma tucana task
  {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:21: error: 'local_t' is declared inside the function, and the task's outlined function cannot name it; declare it at file scope
    n = (int)sizeof(local_t);
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: error: 'GREEN' is declared inside the function, and the task's outlined function cannot name it; declare it at file scope
    n = GREEN;
  }
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: 'calls' is a static local of the enclosing function, which the task's outlined function cannot name; move it to file scope or use a local pointer to it
  calls++;
#pragma tucana task shared(total)
  {
    BUMP(total);  // fine: a macro argument is rewritten where it is written
    // CHECK-DAG: [[FILE]]:[[@LINE+2]]:5: error: 'total' is shared(...) and named in the body of macro 'BUMP_TOTAL', where the translation cannot rewrite it; pass it to the macro as an argument
    // CHECK-DAG: [[FILE]]:12:22: note: expanded from macro 'BUMP_TOTAL'
    BUMP_TOTAL();
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:28: error: shared(...) names 'nothere', which is not a variable visible here
#pragma tucana task shared(nothere)
  n++;
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: a task cannot be a declaration ('x' would not be visible after it); declare it before the task and assign it inside
  int x = 3;
  return total + x + n;
}
