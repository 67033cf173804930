// Where the task pragmas may stand: in a function body; task and taskloop
// before a statement (taskloop: a for loop); taskwait in place of a
// statement, but not as the body of an if or a loop (it would take that
// statement's place); a superblock is neither a task's statement nor in one
// (it cannot run in a task); a statement takes one task pragma. A task pragma in an included file is not translated
// (only the source file given is rewritten): an error, as for superblocks.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- -I %S/Inputs 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

// CHECK-DAG: {{.*}}task_header.h:6:1: error: '#pragma tucana task' in an included file is not translated (tucana-translate rewrites only the source file it is given); move the annotated code into a source file
#include "task_header.h"

// CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana taskwait' must stand in a function body
#pragma tucana taskwait

int f(int n, int *a) {
  if (n)
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana taskwait' cannot be the body of an 'if', 'else' or a loop (it would take the statement's place); put it inside { }
#pragma tucana taskwait
    n++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: '#pragma tucana taskloop' must be followed by a 'for' loop
#pragma tucana taskloop
  while (n > 0) a[--n] = 0;
  {
    a[0] = twice(n);
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana task' must be followed by a statement in a function body
#pragma tucana task
  }
  {
    a[1] = 0;
#pragma tucana taskwait
  }
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: statement has two task pragmas ('task' and 'taskloop')
#pragma tucana taskloop
  for (int i = 0; i < n; i++) a[i] = i;
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: a superblock cannot be the statement of '#pragma tucana task' (a superblock cannot run in a task)
#pragma tucana superblock
  for (int it = 0; it < n; it++) {
#pragma tucana region(only)
    a[it] = it;
  }
#pragma tucana task
  {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana superblock' inside a task: a superblock cannot run in a task; move it out of the task's statement
#pragma tucana superblock
    for (int it = 0; it < n; it++) {
#pragma tucana region(only)
      a[it] = it;
    }
  }
  return n;
}
