// A region's end is found after the last token of its statement also when
// that token comes from a function-like macro call: tucana_sb_ran goes
// after the whole call and its ';'. The loop header, macros and all, stays
// as written.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#define MIN(x, y) ((x) < (y) ? (x) : (y))
#define SQR(x) ((x) * (x))
#define STEP(k) (2 * (k))
#define TWICE(x) (x) *= 2

void f(double *a, const double *b, int n) {
  // CHECK: #line [[@LINE+3]] "[[FILE]]"
  // CHECK-NEXT:   for (int i = 0; i < MIN(n, 8); i += STEP(1)) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma tucana superblock
  for (int i = 0; i < MIN(n, 8); i += STEP(1)) {
    // CHECK: case 0: { /* region square */
    // CHECK-NEXT:     a[i] = SQR(b[i]); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana region(square)
    a[i] = SQR(b[i]);
    // CHECK: case 1: { /* region twice */
    // CHECK-NEXT:     TWICE(a[i]); tucana_sb_ran(tucana_sb0, 1); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana region(twice) depends(square)
    TWICE(a[i]);
  }
}
