// The runtime's #include goes at file scope right before the declaration
// that holds the first superblock: after the program's feature-test macros
// (which must come before any system header) and its own includes, and
// after declarations that do not need it. A '#line' follows it, so that the
// next line keeps its number.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

// CHECK: #define _POSIX_C_SOURCE 200809L
// CHECK-NEXT: #include <mpi.h>
// CHECK-NEXT: #include <time.h>
// CHECK-NOT: {{^#include <tucana/superblock.h>$}}
// CHECK: static double elapsed(struct timespec *t0) {
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <time.h>

static double elapsed(struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

#include <string.h>

// A comment before the function stays before the include: the include goes
// at the function's own line.
// CHECK: #include <string.h>
// CHECK-NOT: {{^#include <tucana/superblock.h>$}}
// CHECK: #include <tucana/superblock.h>
// CHECK-NEXT: #line [[@LINE+2]] "[[FILE]]"
// CHECK-NEXT: double timed(double *a, int n) {
double timed(double *a, int n) {
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(clear)
    memset(&a[i], 0, sizeof a[i]);
  }
  return elapsed(&t0);
}

// A second superblock does not add a second include.
// CHECK-NOT: {{^#include <tucana/superblock.h>$}}
void again(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(clear)
    a[i] = 0;
  }
}
