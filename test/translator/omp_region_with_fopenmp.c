// With -fopenmp given to the translator (as a compile_commands.json may),
// a region that is an OpenMP directive ends with the loop it applies to,
// not with its pragma line.
//
// RUN: %tucana-translate %s -o %t.c -- -fopenmp 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines

#include <mpi.h>

void f(double *u, int n, int steps) {
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: case 0: { /* region smooth */
    // CHECK-NEXT: #pragma omp parallel for
    // CHECK-NEXT:     for (int i = 1; i < n; i++)
    // CHECK-NEXT:       u[i] = 0.5 * (u[i] + u[i - 1]); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana region(smooth)
#pragma omp parallel for
    for (int i = 1; i < n; i++)
      u[i] = 0.5 * (u[i] + u[i - 1]);
  }
}
