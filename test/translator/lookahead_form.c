// A canonical counted loop whose graph lets a region run ahead gets the
// lookahead form (docs/translator.md, "The lookahead form"): START, END and
// STEP evaluated once before the loop and the trip count from them
// (tucana_sb_begin_ahead); one pass of the loop's body runs every
// iteration, each dispatch giving a region and its iteration, and the loop
// variable set for it in its own type; then `break` (the increment does not
// run again). A loop variable declared before the loop gets its final
// value; an unsigned one counts modulo. break and continue inside a
// region's own loops and switches stay there. Lines keep their numbers.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

// `sum` and `count` touch only their own locals and do not depend on each
// other: each may run ahead of the other.
// CHECK-LABEL: long counted(int n, int *last) {
long counted(int n, int *last) {
  long sum = 0, count = 0;
  int i;
  // CHECK: { /* tucana: superblock lookahead_form.c:[[#SB:@LINE+7]], regions sum count, lookahead (translated by tucana-translate) */
  // CHECK: static const tucana_superblock_desc tucana_sb0_desc = {"lookahead_form.c:[[#SB]]", 2, tucana_sb0_regions};
  // CHECK-NEXT: long long tucana_sb0_start = (long long)(int)(2), tucana_sb0_end = (long long)(n), tucana_sb0_step = (long long)(3);
  // CHECK-NEXT: long long tucana_sb0_trips = tucana_sb0_step > 0 && tucana_sb0_start <= tucana_sb0_end ? (tucana_sb0_end - tucana_sb0_start) / tucana_sb0_step + 1 : 0;
  // CHECK-NEXT: tucana_superblock *tucana_sb0 = tucana_sb_begin_ahead(&tucana_sb0_desc, tucana_sb0_trips);
  // CHECK-NEXT: #line [[#SB+1]] "[[FILE]]"
  // CHECK-NEXT:   for (i = 2; i <= n; i += 3) { long long tucana_sb0_k; for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next_ahead(tucana_sb0, &tucana_sb0_k)) >= 0;) { i = (int)(tucana_sb0_start + tucana_sb0_k * tucana_sb0_step); switch (tucana_sb0_r) {
#pragma tucana superblock
  for (i = 2; i <= n; i += 3) {
    // CHECK: case 0: { /* region sum */
#pragma tucana region(sum) depends(sum*)
    {
      for (int k = 0; k < 4; k++) {
        if (k == 1) continue;
        if (k == 3) break;
        sum += i * k;
      }
    }
    // CHECK: case 1: { /* region count */
#pragma tucana region(count) depends(count*)
    switch (i % 2) {
      case 0: count += 2; break;
      default: count += 1; break;
    }
    // CHECK:     } tucana_sb_ran(tucana_sb0, 1); break; }
    // CHECK:   } } i = (int)(tucana_sb0_start + tucana_sb0_trips * tucana_sb0_step); break; } tucana_sb_end(tucana_sb0); }
  }
  *last = i;
  return sum * 1000 + count;
}

// An unsigned loop variable declared in the loop, counting down by one (its
// values computed modulo 2^N, as its own decrement gives them); no final
// value to keep.
// CHECK-LABEL: unsigned down(unsigned n) {
unsigned down(unsigned n) {
  unsigned a = 0, b = 0;
  // CHECK: long long tucana_sb1_start = (long long)(unsigned int)(n), tucana_sb1_end = (long long)(0), tucana_sb1_step = -(long long)(1);
  // CHECK-NEXT: long long tucana_sb1_trips = tucana_sb1_step < 0 && (unsigned int)tucana_sb1_start > (unsigned int)tucana_sb1_end ? (long long)(((unsigned int)((unsigned int)tucana_sb1_start - (unsigned int)tucana_sb1_end) + (unsigned int)(-tucana_sb1_step) - 1) / (unsigned int)(-tucana_sb1_step)) : 0;
  // CHECK: for (unsigned u = n; u > 0; --u) { long long tucana_sb1_k; for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next_ahead(tucana_sb1, &tucana_sb1_k)) >= 0;) { u = (unsigned int)((unsigned long long)tucana_sb1_start + (unsigned long long)tucana_sb1_k * (unsigned long long)tucana_sb1_step); switch (tucana_sb1_r) {
#pragma tucana superblock
  for (unsigned u = n; u > 0; --u) {
#pragma tucana region(a)
    a += u;
#pragma tucana region(b) depends(b*)
    b = b * 3 + u;
    // CHECK: } } break; } tucana_sb_end(tucana_sb1); }
  }
  return a ^ b;
}

int main(int argc, char **argv) {
  int rank, last = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long r = counted(20, &last);
  unsigned d = down(9);
  // The original: i = 2, 5, ..., 20, then 23.
  // OUT: counted 154011 last 23
  // OUT-NEXT: down 83688
  if (rank == 0) printf("counted %ld last %d\ndown %u\n", r, last, d);
  MPI_Finalize();
  return 0;
}
