// #pragma tucana taskloop on every canonical loop form: the parent computes
// START, END and STEP once and the trip count from them (as OpenMP does),
// the body moves into __tucana_taskloop_N(lo, hi, args), which runs the
// iterations lo..hi-1 of the normalized index k with i = START + k * STEP.
// tucana_taskloop gets the trip count, num_tasks or grainsize (0 when not
// given) and waits for the chunks.
//
// The program's result does not depend on how the iterations are split or
// in which order the chunks run: the translation on the stand-in runtime
// (chunks last first) prints what the program compiled without translation
// prints (pragmas ignored: ordinary loops); so does the program built with
// tucanacc on the real runtime, four subranks on two workers, three tasks
// per taskloop by default (each subrank prints every line once).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %cxx -x c++ -fsyntax-only -Wall -Wextra -Werror %mpi-flags %t.c
// RUN: %cc -Wall -Wextra -Werror %mpi-flags %t.c %S/Inputs/task_fake_runtime.c -o %t.fake
// RUN: %t.fake 2>%t.log | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: FileCheck %s --check-prefix=LOG --input-file=%t.log --match-full-lines
// RUN: %cc -Wno-unknown-pragmas %s -o %t.plain
// RUN: %t.plain | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --workers 2 --vf 2 --tasks 3 %t.exe | env LC_ALL=C sort | uniq -c | FileCheck %s --check-prefix=REAL --match-full-lines

#include <stdio.h>
#include <string.h>

#define N 11

// A global (privatized: TUCANA_PRIV in the body and in the clause).
int chunks_wanted = 2;

static void show(const char *form, const int *seen) {
  printf("%s:", form);
  for (int i = 0; i < 3 * N; i++)
    if (seen[i]) printf(" %d%s", i - N, seen[i] > 1 ? "(twice)" : "");
  printf("\n");
}

// The loop variable is declared in the loop, the pointer `seen` is copied
// (what it points to is the parent's), the body's own continue works.
// CHECK: struct __tucana_taskloop_0_args { long long __tucana_start, __tucana_step; int *seen; };
// CHECK-NEXT: static void __tucana_taskloop_0(long long __tucana_lo, long long __tucana_hi, void *__tucana_p) {
// CHECK-NEXT:   struct __tucana_taskloop_0_args *__tucana_a = (struct __tucana_taskloop_0_args *)__tucana_p;
// CHECK-NEXT:   int *seen = __tucana_a->seen;
// CHECK-NEXT:   for (long long __tucana_k = __tucana_lo; __tucana_k < __tucana_hi; ++__tucana_k) {
// CHECK-NEXT:     int i = (int)((unsigned long long)__tucana_a->__tucana_start + (unsigned long long)__tucana_k * (unsigned long long)__tucana_a->__tucana_step); (void)i;
// CHECK-NEXT: #line [[#]] "[[FILE]]"
// CHECK-NEXT:   {
// CHECK-NEXT:     if (i == 5) continue;
// CHECK-NEXT:     seen[i + N]++;
// CHECK-NEXT:   }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// A long loop variable (the 10th loop below).
// CHECK: struct __tucana_taskloop_9_args { long long __tucana_start, __tucana_step; int *seen; };
// CHECK: long k = (long)((unsigned long long)__tucana_a->__tucana_start + (unsigned long long)__tucana_k * (unsigned long long)__tucana_a->__tucana_step); (void)k;
// The global in the clause is the subrank's copy, as in the body.
// CHECK: unsigned int u = (unsigned int)((unsigned long long)__tucana_a->__tucana_start + (unsigned long long)__tucana_k * (unsigned long long)__tucana_a->__tucana_step); (void)u;
// CHECK-NEXT: #line [[#]] "[[FILE]]"
// CHECK-NEXT: {{ *}}seen[u + N] += TUCANA_PRIV(chunks_wanted) - 1;
// CHECK: #line [[#@LINE+1]] "[[FILE]]"
int main(void) {
  int buf[3 * N];
  int *seen = buf;
  int n = 9, i;

  memset(buf, 0, sizeof buf);
  // CHECK: {{^}}{ long long __tucana_start = (long long)(0), __tucana_end = (long long)(n), __tucana_step = (long long)(1); long long __tucana_n = __tucana_step > 0 && __tucana_start < __tucana_end ? (__tucana_end - __tucana_start + __tucana_step - 1) / __tucana_step : 0; struct __tucana_taskloop_0_args __tucana_args; __tucana_args.__tucana_start = __tucana_start; __tucana_args.__tucana_step = __tucana_step; __tucana_args.seen = seen; tucana_task_attr __tucana_attr = TUCANA_TASK_ATTR_INIT; tucana_taskloop(__tucana_n, 0, 0, __tucana_taskloop_0, &__tucana_args, sizeof __tucana_args, &__tucana_attr); }
#pragma tucana taskloop
  for (int i = 0; i < n; i++) {
    if (i == 5) continue;
    seen[i + N]++;
  }
  show("i++ <", seen);

  memset(buf, 0, sizeof buf);
  // CHECK: {{^}}{ long long __tucana_start = (long long)(1), __tucana_end = (long long)(n), __tucana_step = (long long)(1); long long __tucana_n = __tucana_step > 0 && __tucana_start <= __tucana_end ? (__tucana_end - __tucana_start) / __tucana_step + 1 : 0; {{.*}} tucana_taskloop(__tucana_n, (long long)(2), 0, __tucana_taskloop_1, &__tucana_args, sizeof __tucana_args, &__tucana_attr); }
#pragma tucana taskloop num_tasks(2)
  for (int i = 1; i <= n; ++i) seen[i + N]++;
  show("++i <=", seen);

  memset(buf, 0, sizeof buf);
  // CHECK: {{^}}{ long long __tucana_start = (long long)(n), __tucana_end = (long long)(0), __tucana_step = -(long long)(1); long long __tucana_n = __tucana_step < 0 && __tucana_start > __tucana_end ? (__tucana_start - __tucana_end - __tucana_step - 1) / -__tucana_step : 0; {{.*}} tucana_taskloop(__tucana_n, 0, (long long)(4), __tucana_taskloop_2, {{.*}}
#pragma tucana taskloop grainsize(4)
  for (int i = n; i > 0; i--) seen[i + N]++;
  show("i-- >", seen);

  memset(buf, 0, sizeof buf);
#pragma tucana taskloop
  for (int i = n; i >= -3; --i) seen[i + N]++;
  show("--i >=", seen);

  memset(buf, 0, sizeof buf);
#pragma tucana taskloop
  for (int i = 0; i < n + 2; i += 3) seen[i + N]++;
  show("+= 3 <", seen);

  memset(buf, 0, sizeof buf);
  // A negative START and END, a step subtracted.
  // CHECK: {{^}}{ long long __tucana_start = (long long)(N - 1), __tucana_end = (long long)(-N), __tucana_step = -(long long)(4); long long __tucana_n = __tucana_step < 0 && __tucana_start >= __tucana_end ? (__tucana_start - __tucana_end) / -__tucana_step + 1 : 0; {{.*}}
#pragma tucana taskloop
  for (int i = N - 1; i >= -N; i -= 4) seen[i + N]++;
  show("-= 4 >=", seen);

  memset(buf, 0, sizeof buf);
#pragma tucana taskloop
  for (int i = 2; i != n; i++) seen[i + N]++;
  show("!= ++", seen);

  memset(buf, 0, sizeof buf);
#pragma tucana taskloop
  for (int i = n; i != -2; i--) seen[i + N]++;
  show("!= --", seen);

  memset(buf, 0, sizeof buf);
  // The loop variable declared before the loop: the task has its own (the
  // parent's is not changed, as OpenMP's private loop variable).
  // CHECK: {{^}}{ long long __tucana_start = (long long)(-5), __tucana_end = (long long)(n), __tucana_step = (long long)(2); long long __tucana_n = {{.*}}; (void)i; struct {{.*}}
#pragma tucana taskloop
  for (i = -5; i < n; i = i + 2) seen[i + N]++;
  show("i = i + 2", seen);

  memset(buf, 0, sizeof buf);
  // The bound on the left, the step first, a long loop variable.
  // CHECK: {{^}}{ long long __tucana_start = (long long)(3), __tucana_end = (long long)(10), __tucana_step = (long long)(2); long long __tucana_n = __tucana_step > 0 && __tucana_start < __tucana_end ? {{.*}}
#pragma tucana taskloop
  for (long k = 3; 10 > k; k = 2 + k) seen[k + N]++;
  show("10 > k, k = 2 + k", seen);

  memset(buf, 0, sizeof buf);
  // An unsigned loop variable counting down, a step of i = i - S.
  // CHECK: {{.*}} tucana_taskloop(__tucana_n, (long long)(TUCANA_PRIV(chunks_wanted)), 0, __tucana_taskloop_10, {{.*}}
#pragma tucana taskloop num_tasks(chunks_wanted)
  for (unsigned u = 10; u > 1; u = u - 3) seen[u + N] += chunks_wanted - 1;
  show("unsigned u = u - 3", seen);

  memset(buf, 0, sizeof buf);
  // No iterations.
#pragma tucana taskloop
  for (int i = 5; i < 0; i++) seen[i + N]++;
  show("none", seen);
  return 0;
}

// OUT: i++ <: 0 1 2 3 4 6 7 8
// OUT-NEXT: ++i <=: 1 2 3 4 5 6 7 8 9
// OUT-NEXT: i-- >: 1 2 3 4 5 6 7 8 9
// OUT-NEXT: --i >=: -3 -2 -1 0 1 2 3 4 5 6 7 8 9
// OUT-NEXT: += 3 <: 0 3 6 9
// OUT-NEXT: -= 4 >=: -10 -6 -2 2 6 10
// OUT-NEXT: != ++: 2 3 4 5 6 7 8
// OUT-NEXT: != --: -1 0 1 2 3 4 5 6 7 8 9
// OUT-NEXT: i = i + 2: -5 -3 -1 1 3 5 7
// OUT-NEXT: 10 > k, k = 2 + k: 3 5 7 9
// OUT-NEXT: unsigned u = u - 3: 4 7 10
// OUT-NEXT: none:

// The trip counts the parent computed, and the chunks.
// LOG: taskloop n=9 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=9 chunks=2 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=9 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=13 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=4 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=6 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=7 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=11 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=7 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=4 chunks=3 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=3 chunks=2 name=- priority=0 boundary=0 ndeps=0
// LOG-NEXT: taskloop n=0 chunks=0 name=- priority=0 boundary=0 ndeps=0

// REAL: 4 != ++: 2 3 4 5 6 7 8
// REAL-NEXT: 4 != --: -1 0 1 2 3 4 5 6 7 8 9
// REAL-NEXT: 4 ++i <=: 1 2 3 4 5 6 7 8 9
// REAL-NEXT: 4 += 3 <: 0 3 6 9
// REAL-NEXT: 4 --i >=: -3 -2 -1 0 1 2 3 4 5 6 7 8 9
// REAL-NEXT: 4 -= 4 >=: -10 -6 -2 2 6 10
// REAL-NEXT: 4 10 > k, k = 2 + k: 3 5 7 9
// REAL-NEXT: 4 i = i + 2: -5 -3 -1 1 3 5 7
// REAL-NEXT: 4 i++ <: 0 1 2 3 4 6 7 8
// REAL-NEXT: 4 i-- >: 1 2 3 4 5 6 7 8 9
// REAL-NEXT: 4 none:
// REAL-NEXT: 4 unsigned u = u - 3: 4 7 10
// REAL-NOT: {{.}}
