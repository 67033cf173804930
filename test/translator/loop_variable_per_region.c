// Each region runs at its own iteration, so each has its own copy of the
// loop variable: 'T v = tucana_sbK_it[R];' before the region's code, the
// loop condition tested on it (false: tucana_sb_finish, the region is done),
// the increment applied after the code, and 'tucana_sbK_it[R] = v;'. The
// loop's first clause runs once and gives every region its start value.
// When the loop variable is declared outside the loop ('for (i = 0; ...)'),
// it gets the last region's final value after the loop, as after the
// original loop. The copies have the loop variable's type as written.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  // 'for (int i = 0; ...)': a fresh 'int i' in each region.
  int seen_a[4], seen_b[4], na = 0, nb = 0;
  // CHECK: /* tucana: superblock loop_variable_per_region.c:{{[0-9]+}}, regions a b (translated by tucana-translate) */
  // CHECK:   int tucana_sb0_it[2];
  // CHECK-NEXT:   tucana_superblock *tucana_sb0;
  // CHECK-NEXT:   {
  // CHECK-NEXT:     int i = 0;
  // CHECK-NEXT:     tucana_sb0_it[0] = i;
  // CHECK-NEXT:     tucana_sb0_it[1] = i;
  // CHECK-NEXT:   }
#pragma tucana superblock
  for (int i = 0; i < 8; i += 2) {
    // CHECK:     case 0: { /* region a */
    // CHECK-NEXT:       int i = tucana_sb0_it[0];
    // CHECK-NEXT:       if (!(i < 8)) {
    // CHECK-NEXT:         tucana_sb_finish(tucana_sb0, 0);
    // CHECK-NEXT:         break;
    // CHECK-NEXT:       }
    // CHECK-NEXT: #line {{[0-9]+}} "{{.*}}"
    // CHECK-NEXT:     seen_a[na++] = i;
    // CHECK-NEXT:       i += 2;
    // CHECK-NEXT:       tucana_sb0_it[0] = i;
    // CHECK-NEXT:       tucana_sb_ran(tucana_sb0, 0);
    // CHECK-NEXT:       break;
    // CHECK-NEXT:     }
#pragma tucana region(a)
    seen_a[na++] = i;
    // CHECK-NEXT:     case 1: { /* region b */
    // CHECK-NEXT:       int i = tucana_sb0_it[1];
    // CHECK-NEXT:       if (!(i < 8)) {
    // CHECK-NEXT:         tucana_sb_finish(tucana_sb0, 1);
    // CHECK-NEXT:         break;
    // CHECK-NEXT:       }
    // CHECK-NEXT: #line {{[0-9]+}} "{{.*}}"
    // CHECK-NEXT:     seen_b[nb++] = 10 * i;
    // CHECK-NEXT:       i += 2;
    // CHECK-NEXT:       tucana_sb0_it[1] = i;
    // CHECK-NEXT:       tucana_sb_ran(tucana_sb0, 1);
    // CHECK-NEXT:       break;
    // CHECK-NEXT:     }
    // CHECK-NEXT:     }
    // CHECK-NEXT:   }
    // CHECK-NEXT:   tucana_sb_end(tucana_sb0);
    // CHECK-NEXT: }
#pragma tucana region(b) depends(a)
    seen_b[nb++] = 10 * i;
  }

  // 'for (j = 1; ...)' with j declared before: the first clause as written,
  // and j's final value assigned after the loop (from the last region).
  int j = -1, last = 0;
  long sum = 0;
  // CHECK: /* tucana: superblock loop_variable_per_region.c:{{[0-9]+}}, regions add log (translated by tucana-translate) */
  // CHECK:   int tucana_sb1_it[2];
  // CHECK-NEXT:   tucana_superblock *tucana_sb1;
  // CHECK-NEXT:   {
  // CHECK-NEXT:     j = 1;
  // CHECK-NEXT:     tucana_sb1_it[0] = j;
  // CHECK-NEXT:     tucana_sb1_it[1] = j;
  // CHECK-NEXT:   }
#pragma tucana superblock
  for (j = 1; j <= 5; j++) {
    // CHECK:     case 0: { /* region add */
    // CHECK-NEXT:       int j = tucana_sb1_it[0];
    // CHECK-NEXT:       if (!(j <= 5)) {
#pragma tucana region(add)
    sum += j;
    // CHECK:     case 1: { /* region log */
    // CHECK-NEXT:       int j = tucana_sb1_it[1];
    // CHECK:       j++;
    // CHECK-NEXT:       tucana_sb1_it[1] = j;
    // CHECK:   tucana_sb_end(tucana_sb1);
    // CHECK-NEXT:   j = tucana_sb1_it[1];
    // CHECK-NEXT: }
#pragma tucana region(log) depends(add*)
    last = j;
  }

  // A long loop variable (values beyond int) and a size_t one declared
  // before the loop: the copies are long and size_t.
  long big = 0;
  // CHECK: /* tucana: superblock loop_variable_per_region.c:{{[0-9]+}}, regions acc (translated by tucana-translate) */
  // CHECK:   long tucana_sb2_it[1];
  // CHECK:     long L = 3000000000L;
  // CHECK:       long L = tucana_sb2_it[0];
  // CHECK-NEXT:       if (!(L < 3000000003L)) {
#pragma tucana superblock
  for (long L = 3000000000L; L < 3000000003L; ++L) {
#pragma tucana region(acc)
    big += L - 2999999990L;
  }
  size_t k;
  double halves[3];
  // CHECK: /* tucana: superblock loop_variable_per_region.c:{{[0-9]+}}, regions fill (translated by tucana-translate) */
  // CHECK:   size_t tucana_sb3_it[1];
  // CHECK:     k = 0;
  // CHECK:       size_t k = tucana_sb3_it[0];
  // CHECK:   tucana_sb_end(tucana_sb3);
  // CHECK-NEXT:   k = tucana_sb3_it[0];
#pragma tucana superblock
  for (k = 0; k < sizeof halves / sizeof halves[0]; k++) {
#pragma tucana region(fill)
    halves[k] = k / 2.0;
  }

  if (rank == 0) {
    printf("a: %d %d %d %d (%d)\n", seen_a[0], seen_a[1], seen_a[2], seen_a[3], na);
    printf("b: %d %d %d %d (%d)\n", seen_b[0], seen_b[1], seen_b[2], seen_b[3], nb);
    printf("j %d last %d sum %ld\n", j, last, sum);
    printf("big %ld\n", big);
    printf("k %zu halves %g %g %g\n", k, halves[0], halves[1], halves[2]);
  }
  MPI_Finalize();
  return 0;
}

// OUT: a: 0 2 4 6 (4)
// OUT-NEXT: b: 0 20 40 60 (4)
// OUT-NEXT: j 6 last 5 sum 15
// OUT-NEXT: big 33
// OUT-NEXT: k 3 halves 0 0.5 1
