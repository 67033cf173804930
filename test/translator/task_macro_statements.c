// A statement that a macro expands to (a call, or do { } while (0)) after a
// task pragma moves whole, and a taskwait before one stays a statement of
// the block (not the body of the macro's do-while); a taskloop's bound may
// be a macro.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#define CHECK_POSITIVE(x) \
  do {                    \
    if ((x) <= 0) fail(); \
  } while (0)
#define RECORD(v) record(v)
#define LIMIT 16

void fail(void);
void record(int v);

// CHECK: static void __tucana_task_0(void *__tucana_p) {
// CHECK: #line [[#]] "[[FILE]]"
// CHECK-NEXT:   CHECK_POSITIVE(n);
// CHECK-NEXT: }
// CHECK: static void __tucana_task_1(void *__tucana_p) {
// CHECK: #line [[#]] "[[FILE]]"
// CHECK-NEXT:   RECORD(n * 2);
// CHECK-NEXT: }
// CHECK: static void __tucana_taskloop_0(long long __tucana_lo, long long __tucana_hi, void *__tucana_p) {
// CHECK: {{ *}}RECORD(i);
void f(int n) {
#pragma tucana task
  CHECK_POSITIVE(n);
  // CHECK: {{^}}tucana_taskwait();
  // CHECK-NEXT: {{ *}}CHECK_POSITIVE(n - 1);
#pragma tucana taskwait
  CHECK_POSITIVE(n - 1);
#pragma tucana task
  RECORD(n * 2);
  // CHECK: {{^}}{ long long __tucana_start = (long long)(0), __tucana_end = (long long)(LIMIT), {{.*}}
#pragma tucana taskloop
  for (int i = 0; i < LIMIT; i++)
    RECORD(i);
}
