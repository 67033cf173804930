// OpenMP array sections in depend(...): `p[lower : length]`, `p[: length]`,
// `a[i][lower : length]`, and a conditional inside a section's bound (its
// ':' is the conditional's). A section's storage begins at its first
// element, and the dependence is keyed by that address, as in the OpenMP
// runtimes (OpenMP requires sibling tasks' sections to be identical or
// disjoint). The chunks below are written by some tasks and read by later
// ones: every reader must see its writer's values, whatever the schedule.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %cc -Wno-unknown-pragmas %s -o %t.plain
// RUN: %t.plain | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 --tasks 4 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 1 --workers 2 --vf 2 --tasks 4 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <stdio.h>

#define N 32
#define CHUNK 8

static void fill(double *p, int n, double v) {
  for (int i = 0; i < n; i++) {
    volatile double spin = 0;
    for (int k = 0; k < 2000; k++) spin += k;
    p[i] = v + i;
  }
}

static double p[N], grid[2][N], sum[N / CHUNK];

int main(void) {
  int odd = 1;
  for (int c = 0; c < N / CHUNK; c++) {
    double *chunk = &p[c * CHUNK];
    // CHECK: {{.*}}tucana_task_dep __tucana_deps[] = {{[{][{]}}(const void *)&(TUCANA_PRIV(p)[c * 8]), TUCANA_DEP_OUT}}; {{.*}}
#pragma tucana task depend(out: p[c * CHUNK : CHUNK])
    fill(chunk, CHUNK, 10.0 * c);
    // CHECK: {{.*}}tucana_task_dep __tucana_deps[] = {{[{][{]}}(const void *)&(TUCANA_PRIV(grid)[1][c * 8]), TUCANA_DEP_OUT}}; {{.*}}
#pragma tucana task depend(out: grid[1][c * CHUNK:CHUNK])
    fill(&grid[1][c * CHUNK], CHUNK, 100.0 * c);
  }
  for (int c = 0; c < N / CHUNK; c++) {
    // CHECK: {{.*}}tucana_task_dep __tucana_deps[] = {{[{][{]}}(const void *)&(TUCANA_PRIV(p)[c * 8]), TUCANA_DEP_IN}, {(const void *)&(TUCANA_PRIV(grid)[odd ? 1 : 0][c * 8]), TUCANA_DEP_IN}, {(const void *)&(TUCANA_PRIV(sum)[c]), TUCANA_DEP_OUT}}; {{.*}}
#pragma tucana task depend(in: p[c * CHUNK : CHUNK], grid[odd ? 1 : 0][c * CHUNK : CHUNK]) depend(out: sum[c:1])
    for (int i = 0; i < CHUNK; i++) sum[c] += p[c * CHUNK + i] + grid[1][c * CHUNK + i];
  }
  // CHECK: {{.*}}{(const void *)&(TUCANA_PRIV(sum)[0]), TUCANA_DEP_IN}{{.*}}
#pragma tucana task depend(in: sum[:N / CHUNK])
  printf("chunks %g %g %g %g\n", sum[0], sum[1], sum[2], sum[3]);
#pragma tucana taskwait
  return 0;
}
// OUT: chunks 56 936 1816 2696
