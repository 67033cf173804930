// Other pragmas are not the translator's: '#pragma omp parallel for'
// between a region pragma and its loop stays in the output, right before
// the loop, inside the region's case; the region ends after the loop.
// (Translated without -fopenmp, as tucanacc does: it gives the translator
// only -I, -D, -U, -include and -std flags.)
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -Wno-unknown-pragmas -c %t.c -o %t.o

void f(double *a, double *b, int n, int steps) {
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: case 0: { /* region smooth */
    // CHECK-NEXT: #pragma omp parallel for
    // CHECK-NEXT:     for (int i = 1; i < n - 1; i++)
    // CHECK-NEXT:       b[i] = 0.5 * (a[i - 1] + a[i + 1]); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana region(smooth)
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.5 * (a[i - 1] + a[i + 1]);
    // CHECK: case 1: { /* region copy */
    // CHECK-NEXT: #pragma omp parallel for simd
    // CHECK-NEXT:     for (int i = 1; i < n - 1; i++) {
    // CHECK-NEXT:       a[i] = b[i];
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 1); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana region(copy) depends(smooth)
#pragma omp parallel for simd
    for (int i = 1; i < n - 1; i++) {
      a[i] = b[i];
    }
  }
}
