// A superblock may be the body of an 'if' (or 'else') without braces, or
// the statement of a 'case': the translation wraps the tables, the loop and
// tucana_sb_end in one { } block, so that it stays one statement.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void f(double *a, int n, int mode) {
  // CHECK: if (mode > 0)
  // CHECK-NEXT: { /* tucana: superblock superblock_in_if_and_case.c:[[#SB0:@LINE+6]], regions only (translated by tucana-translate) */
  // CHECK: #line [[#SB0+1]] "[[FILE]]"
  // CHECK-NEXT:     for (int i = 0; i < n; i++) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
  // CHECK: } } tucana_sb_end(tucana_sb0); }
  // CHECK-NEXT:   else
  if (mode > 0)
#pragma tucana superblock
    for (int i = 0; i < n; i++) {
#pragma tucana region(only)
      a[i] = 1;
    }
  else
    // CHECK: { /* tucana: superblock superblock_in_if_and_case.c:[[#SB1:@LINE+3]], regions only (translated by tucana-translate) */
    // CHECK: #line [[#SB1+1]] "[[FILE]]"
    // CHECK-NEXT:     for (int i = n; i > 0; i--) { for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
#pragma tucana superblock
    for (int i = n; i > 0; i--) {
#pragma tucana region(only)
      a[i - 1] = 2;
    }

  switch (mode) {
  case 0:
    // CHECK: case 0:
    // CHECK: { /* tucana: superblock superblock_in_if_and_case.c:[[#SB2:@LINE+4]], regions receive send compute (translated by tucana-translate) */
    // CHECK: #line [[#SB2+1]] "[[FILE]]"
    // CHECK-NEXT:     for (int i = 0; i < n; i++) { for (int tucana_sb2_r; (tucana_sb2_r = tucana_sb_next(tucana_sb2)) >= 0;) switch (tucana_sb2_r) {
    // CHECK: } } tucana_sb_end(tucana_sb2); }
#pragma tucana superblock
    for (int i = 0; i < n; i++) {
#pragma tucana receive
      a[0] += 1;
#pragma tucana send
      a[1] += 1;
#pragma tucana compute
      a[2] += a[0] + a[1];
    }
    // CHECK:     break;
    break;
  default:
    // CHECK: default:
    // CHECK: { /* tucana: superblock superblock_in_if_and_case.c:[[#SB3:@LINE+2]], regions once (translated by tucana-translate) */
    // CHECK: } } tucana_sb_end(tucana_sb3); }
#pragma tucana superblock
    {
#pragma tucana region(once)
      a[3] = 0;
    }
  }
}
