// A superblock may be any loop ('for', 'while', 'do', C++ range 'for': see
// cxx_range_for.cpp) or a { } block, which runs once. The loop keeps its
// header as written, macros and loop pragmas included: the dispatch opens
// after the body's '{', closes before its '}', and tucana_sb_end follows the
// whole loop (after a do loop's 'while (...);'). MATE region pragmas make a
// superblock of any loop whose body they stand in.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %cxx -x c++ -fsyntax-only -Wall -Wextra -Werror %mpi-flags %t.c

#include <mpi.h>

#define FOR_EACH(i, n) for (int i = 0; i < (n); i++)

void shapes(double *a, int n) {
  int i = 0;
  // CHECK: { /* tucana: superblock superblock_shapes.c:[[#SB0:@LINE+5]], regions step next (translated by tucana-translate) */
  // CHECK: #line [[#SB0+1]] "[[FILE]]"
  // CHECK-NEXT:   while (i < n) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
  // CHECK: i++; tucana_sb_ran(tucana_sb0, 1); break; }
  // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana superblock
  while (i < n) {
#pragma tucana region(step)
    a[i] = i;
#pragma tucana region(next) depends(step)
    i++;
  }
  // CHECK: { /* tucana: superblock superblock_shapes.c:[[#SB1:@LINE+5]], regions compute receive send (translated by tucana-translate) */
  // CHECK: #line [[#SB1+1]] "[[FILE]]"
  // CHECK-NEXT:   do { for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
  // CHECK: a[1] += 0; tucana_sb_ran(tucana_sb1, 2); break; }
  // CHECK-NEXT:   } } while (i > 0); tucana_sb_end(tucana_sb1); }
#pragma toucan superblock
  do {
#pragma toucan compute
    a[--i] = 1;
#pragma toucan receive
    a[0] += 0;
#pragma toucan send
    a[1] += 0;
  } while (i > 0);
  // A block: one iteration.
  // CHECK: { /* tucana: superblock superblock_shapes.c:[[#SB2:@LINE+6]], regions first second (translated by tucana-translate) */
  // CHECK: #line [[#SB2+1]] "[[FILE]]"
  // CHECK-NEXT:   { for (int tucana_sb2_r; (tucana_sb2_r = tucana_sb_next(tucana_sb2)) >= 0;) switch (tucana_sb2_r) {
  // CHECK: case 1: { /* region second */
  // CHECK-NEXT:     a[1] = a[0]; tucana_sb_ran(tucana_sb2, 1); break; }
  // CHECK-NEXT:   } } tucana_sb_end(tucana_sb2); }
#pragma tucana superblock
  {
#pragma tucana region(first)
    a[0] = 2;
#pragma tucana region(second) depends(first)
    a[1] = a[0];
  }
  // A loop header from a macro stays a macro call.
  // CHECK: { /* tucana: superblock superblock_shapes.c:[[#SB3:@LINE+4]], regions body (translated by tucana-translate) */
  // CHECK: #line [[#SB3+1]] "[[FILE]]"
  // CHECK-NEXT:   FOR_EACH(k, n) { for (int tucana_sb3_r; (tucana_sb3_r = tucana_sb_next(tucana_sb3)) >= 0;) switch (tucana_sb3_r) {
  // CHECK: } } tucana_sb_end(tucana_sb3); }
#pragma tucana superblock
  FOR_EACH(k, n) {
#pragma tucana region(body)
    a[k] = 3;
  }
  // '#pragma GCC unroll' between the superblock pragma and its loop stays
  // right before the loop.
  // CHECK: { /* tucana: superblock superblock_shapes.c:[[#SB4:@LINE+5]], regions body (translated by tucana-translate) */
  // CHECK: #line [[#SB4+1]] "[[FILE]]"
  // CHECK-NEXT: #pragma GCC unroll 2
  // CHECK-NEXT:   for (int k = 0; k < n; k++) { for (int tucana_sb4_r; (tucana_sb4_r = tucana_sb_next(tucana_sb4)) >= 0;) switch (tucana_sb4_r) {
  // CHECK: } } tucana_sb_end(tucana_sb4); }
#pragma tucana superblock
#pragma GCC unroll 2
  for (int k = 0; k < n; k++) {
#pragma tucana region(body)
    a[k] = 4;
  }
  // MATE: the tables go before the loop pragma, which stays with its loop.
  // CHECK: { /* tucana: superblock superblock_shapes.c:[[#SB5:@LINE+5]], regions body (translated by tucana-translate) */
  // CHECK: #line [[#SB5]] "[[FILE]]"
  // CHECK-NEXT: #pragma GCC unroll 4
  // CHECK-NEXT:   for (int k = 0; k < n; k++) { for (int tucana_sb5_r; (tucana_sb5_r = tucana_sb_next(tucana_sb5)) >= 0;) switch (tucana_sb5_r) {
  // CHECK: } } tucana_sb_end(tucana_sb5); }
#pragma GCC unroll 4
  for (int k = 0; k < n; k++) {
#pragma mate region(body)
    a[k] = 5;
  }
  // MATE on a while loop.
  // CHECK: { /* tucana: superblock superblock_shapes.c:[[#SB6:@LINE+4]], regions body (translated by tucana-translate) */
  // CHECK: #line [[#SB6]] "[[FILE]]"
  // CHECK-NEXT:   while (i < n) { for (int tucana_sb6_r; (tucana_sb6_r = tucana_sb_next(tucana_sb6)) >= 0;) switch (tucana_sb6_r) {
  // CHECK: } } tucana_sb_end(tucana_sb6); }
  while (i < n) {
#pragma mate region(body)
    a[i++] = 6;
  }
}
