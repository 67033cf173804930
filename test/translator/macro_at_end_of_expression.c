// Text copied from the input ends after the last token of the expression or
// statement, also when that token comes from a function-like macro call:
// the loop condition, the increment and a region's statement are copied
// whole, arguments included.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#define MIN(x, y) ((x) < (y) ? (x) : (y))
#define SQR(x) ((x) * (x))
#define STEP(k) (2 * (k))

void f(double *a, const double *b, int n) {
#pragma tucana superblock
  for (int i = 0; i < MIN(n, 8); i += STEP(1)) {
    // CHECK:     case 0: { /* region square */
    // CHECK-NEXT:       int i = tucana_sb0_it[0];
    // CHECK-NEXT:       if (!(i < MIN(n, 8))) {
    // CHECK:     a[i] = SQR(b[i]);
    // CHECK-NEXT:       i += STEP(1);
#pragma tucana region(square)
    a[i] = SQR(b[i]);
  }
}
