// Loops that keep the iteration-at-a-time form although their graph would
// let a region run ahead (docs/translator.md, "When each form is chosen"):
// each one breaks one condition of the lookahead form's exactness. In every
// superblock below the regions `a` and `b` do not depend on each other.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: not grep 'tucana_sb_begin_[a]head' %t.c
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

int bound(void);
int next(int i);

void headers(int n, int *out) {
  int a = 0, b = 0;
  // A call in the bound (a side effect, or a different value each time).
  // CHECK: tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
#pragma tucana superblock
  for (int i = 0; i < bound(); i++) {
#pragma tucana region(a)
    a += i;
#pragma tucana region(b)
    b += 2 * i;
  }
  // An increment that is no step.
  // CHECK: tucana_superblock *tucana_sb1 = tucana_sb_begin(&tucana_sb1_desc);
#pragma tucana superblock
  for (int i = 0; i < n; i = next(i)) {
#pragma tucana region(a)
    a += i;
#pragma tucana region(b)
    b += 2 * i;
  }
  // The body writes the bound.
  // CHECK: tucana_superblock *tucana_sb2 = tucana_sb_begin(&tucana_sb2_desc);
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a)
    a += i;
#pragma tucana region(b)
    n -= b;
  }
  // The body writes the loop variable.
  // CHECK: tucana_superblock *tucana_sb3 = tucana_sb_begin(&tucana_sb3_desc);
#pragma tucana superblock
  for (int i = 0; i < 10; i++) {
#pragma tucana region(a)
    a += i;
#pragma tucana region(b)
    i += b;
  }
  // The loop variable's address is taken (a call may write it).
  int j, *p = &j;
  // CHECK: tucana_superblock *tucana_sb4 = tucana_sb_begin(&tucana_sb4_desc);
#pragma tucana superblock
  for (j = 0; j < 10; j++) {
#pragma tucana region(a)
    a += j;
#pragma tucana region(b)
    b += *p;
  }
  // A step that is not a constant (zero would loop for ever), and an
  // unsigned variable that may wrap past its bound.
  // CHECK: tucana_superblock *tucana_sb5 = tucana_sb_begin(&tucana_sb5_desc);
#pragma tucana superblock
  for (int i = 0; i < 10; i += n) {
#pragma tucana region(a)
    a += i;
#pragma tucana region(b)
    b += 1;
  }
  // CHECK: tucana_superblock *tucana_sb6 = tucana_sb_begin(&tucana_sb6_desc);
#pragma tucana superblock
  for (unsigned u = 1; u <= (unsigned)n; u += 2) {
#pragma tucana region(a)
    a += (int)u;
#pragma tucana region(b)
    b += 1;
  }
  *out = a + b;
}

void graphs(double *x, double *y, int n) {
  double in[2], v = 0.0;
  int left = 0, right = 1;
  MPI_Request req[2];
  // Two regions that post receives, not ordered across iterations: the
  // messages could match other receives than in the original.
  // CHECK: tucana_superblock *tucana_sb7 = tucana_sb_begin(&tucana_sb7_desc);
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a)
    MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana region(b)
    MPI_Irecv(&in[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana region(c) depends(a, b)
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  // A local written by one region and read by the other.
  // CHECK: tucana_superblock *tucana_sb8 = tucana_sb_begin(&tucana_sb8_desc);
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a)
    v = i;
#pragma tucana region(b)
    x[i] = v;
  }
  // Memory through pointers: b of i+1 may read what a of i writes.
  // CHECK: tucana_superblock *tucana_sb9 = tucana_sb_begin(&tucana_sb9_desc);
#pragma tucana superblock
  for (int i = 1; i < n; i++) {
#pragma tucana region(a)
    y[i] = x[i - 1];
#pragma tucana region(b)
    x[i] = y[i] + 1.0;
  }
  // A graph that orders every region of i before every region of i+1 (the
  // Toucan form's): lookahead would gain nothing.
  // CHECK: tucana_superblock *tucana_sb10 = tucana_sb_begin(&tucana_sb10_desc);
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(a) depends(b*)
    v += 1.0;
#pragma tucana region(b) depends(a)
    v *= 0.5;
  }
  // A { } block (one iteration) and a while loop.
  // CHECK: tucana_superblock *tucana_sb11 = tucana_sb_begin(&tucana_sb11_desc);
#pragma tucana superblock
  {
#pragma tucana region(a)
    left = 2;
#pragma tucana region(b)
    right = 3;
  }
  // CHECK: tucana_superblock *tucana_sb12 = tucana_sb_begin(&tucana_sb12_desc);
#pragma tucana superblock
  while (left < n) {
#pragma tucana region(a)
    left++;
#pragma tucana region(b)
    right++;
  }
  *y = v + left + right;
}
