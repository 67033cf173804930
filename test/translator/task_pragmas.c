// #pragma tucana task and taskwait in C: the statement moves into a static
// function before the enclosing function, with a struct of what it
// captures (locals and parameters by value, arrays copied, shared(...) by
// address: (*__tucana_a->NAME) at each use); the pragma line becomes the
// spawn, the statement's lines stay, empty, so that every later line keeps
// its number; #line points the moved text at its original lines.
//
// The translation runs on a stand-in runtime (Inputs/task_fake_runtime.c)
// that copies the arguments at the spawn and runs the task at the next
// taskwait: a task that did not capture by value, or wrote a copy where it
// should write the parent's variable, prints a wrong value. (This program
// looks at those copies on purpose, so compiled without translation, its
// tasks running in place, it prints other values; taskloop_forms.c is a
// program whose result does not depend on it.)
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %cxx -x c++ -fsyntax-only -Wall -Wextra -Werror %mpi-flags %t.c
// RUN: %cc -Wall -Wextra -Werror %mpi-flags %t.c %S/Inputs/task_fake_runtime.c -o %t.fake
// RUN: %t.fake 2>%t.log | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: FileCheck %s --check-prefix=LOG --input-file=%t.log --match-full-lines

// The runtime's header comes first (it needs only <stddef.h>).
// CHECK: #include <tucana/task.h>
// CHECK-NEXT: #line 1 "[[FILE]]"
#include <stdio.h>

#define TWICE(x) (2 * (x))

struct pair {
  int a, b;
};

static void add(int *to, int v) { *to += v; }

// The outlined functions go right before the enclosing function, each with
// its struct; then a #line back to the function.
// The captures in the order of their first use.
// CHECK: struct __tucana_task_0_args { int *total; int n; int a[3]; struct pair p; };
// CHECK-NEXT: static void __tucana_task_0(void *__tucana_p) {
// CHECK-NEXT:   struct __tucana_task_0_args *__tucana_a = (struct __tucana_task_0_args *)__tucana_p;
// CHECK-NEXT:   int n = __tucana_a->n;
// CHECK-NEXT:   int a[3]; __builtin_memcpy(a, __tucana_a->a, sizeof a);
// CHECK-NEXT:   struct pair p = __tucana_a->p;
// CHECK-NEXT: #line [[#FIRST:]] "[[FILE]]"
// CHECK-NEXT:   {
// CHECK-NEXT:     (*__tucana_a->total) += n + a[0] + a[1] + a[2] + p.a * p.b;
// CHECK-NEXT:     a[0] = 100;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: #line [[#FUNC:]] "[[FILE]]"
//
// A task with no captures passes no arguments.
// CHECK: static void __tucana_task_1(void *__tucana_p) {
// CHECK-NEXT:   (void)__tucana_p;
// CHECK-NEXT: #line [[#SECOND:]] "[[FILE]]"
// CHECK-NEXT:   puts("no captures");
// CHECK-NEXT: }
//
// Macro arguments are rewritten where they are written; a pointer is
// copied (its pointee stays shared).
// CHECK: struct __tucana_task_2_args { int *out; int *total; int n; };
// CHECK: #line [[#THIRD:]] "[[FILE]]"
// CHECK-NEXT:   {
// CHECK-NEXT:     add(out, TWICE((*__tucana_a->total)) + n);
//
// The task in an if's body: the spawn is the if's statement.
// CHECK: struct __tucana_task_3_args { int *out; int n; };
//
// CHECK: #line [[#FUNC]] "[[FILE]]"
// CHECK-NEXT: static void run(int n, int *out) {
static void run(int n, int *out) {
  int a[3] = {1, 2, 3};
  struct pair p = {4, 5};
  int total = 0;
  // CHECK: {{^}}{ struct __tucana_task_0_args __tucana_args; __tucana_args.total = &total; __tucana_args.n = n; __builtin_memcpy((void *)&__tucana_args.a, (const void *)&(a), sizeof __tucana_args.a); __builtin_memcpy((void *)&__tucana_args.p, (const void *)&(p), sizeof __tucana_args.p); tucana_task_dep __tucana_deps[] = {{[{][{]}}(const void *)&(total), TUCANA_DEP_INOUT}, {(const void *)&(a[0]), TUCANA_DEP_IN}, {(const void *)&(out[n - 1]), TUCANA_DEP_OUT}}; tucana_task_attr __tucana_attr = TUCANA_TASK_ATTR_INIT; __tucana_attr.deps = __tucana_deps; __tucana_attr.ndeps = 3; __tucana_attr.priority = (int)(n + 1); __tucana_attr.boundary = 1; __tucana_attr.name = "sum"; tucana_task_spawn(__tucana_task_0, &__tucana_args, sizeof __tucana_args, &__tucana_attr); }
  // The statement's four lines stay, empty (task_line_numbers.c checks
  // that the next line keeps its number).
  // CHECK: {{^}}  n = -1000;  // after the spawn: the task has its own copy of n
#pragma tucana task depend(inout: total) depends(in: a[0]) depend(out: out[n - 1]) shared(total) priority(n + 1) boundary name("sum")
  {
    total += n + a[0] + a[1] + a[2] + p.a * p.b;
    a[0] = 100;
  }
  n = -1000;  // after the spawn: the task has its own copy of n
  a[1] = -1000;
  p.b = 0;
  // CHECK: {{^}}tucana_taskwait();
#pragma tucana taskwait
  printf("total %d a[0] %d\n", total, a[0]);
  n = 3;
  // CHECK: {{^}}{ tucana_task_attr __tucana_attr = TUCANA_TASK_ATTR_INIT; tucana_task_spawn(__tucana_task_1, (const void *)0, 0, &__tucana_attr); }
#pragma tucana task
  puts("no captures");
#pragma tucana task shared(total)
  {
    add(out, TWICE(total) + n);
  }
  if (n > 0)
#pragma tucana task
    add(out + 1, n);
  else
    out[1] = -1;
  total = 1000;  // the task reads the parent's total when it runs
#pragma tucana taskwait
  printf("out %d %d\n", out[0], out[1]);
}

int main(void) {
  int out[2] = {0, 0};
  run(2, out);
  return 0;
}

// OUT: total 28 a[0] 1
// OUT-NEXT: no captures
// OUT-NEXT: out 2003 3

// LOG: spawn name=sum priority=3 boundary=1 ndeps=3 inout in out
// LOG-NEXT: spawn name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: spawn name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: spawn name=- priority=0 boundary=0 ndeps=0
