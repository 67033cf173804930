// A task inside a recursive function (`x = fib(n - 1)` spawned inside
// fib): the outlined function names fib, so it is declared before fib
// (with its arguments' struct) and defined after it. Tasks that name only
// what comes before keep the usual place (task_pragmas.c).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

// CHECK: struct __tucana_task_0_args { int *x; int n; };
// CHECK-NEXT: static void __tucana_task_0(void *__tucana_p);
// CHECK-NEXT: #line [[#@LINE+1]] "{{.*}}task_recursive.c"
static int fib(int n) {
  int x, y;
  if (n < 2) return n;
#pragma tucana task shared(x)
  x = fib(n - 1);
  y = fib(n - 2);
#pragma tucana taskwait
  return x + y;
}
// CHECK: static void __tucana_task_0(void *__tucana_p) {
// CHECK: {{ *}}(*__tucana_a->x) = fib(n - 1);
// CHECK-NEXT: }
// CHECK-NEXT: #line [[#@LINE-3]] "{{.*}}task_recursive.c"

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int f = fib(12 + rank % 2);
  int all = 0;
  MPI_Allreduce(&f, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("fib sum %d\n", all);
  MPI_Finalize();
  return 0;
}
// OUT: fib sum 754
