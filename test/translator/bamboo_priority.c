// '#pragma bamboo priority(N)' right before an olap region or anywhere in
// it gives the whole superblock that priority: each iteration's body starts
// with tucana_sb_priority(sb, -1, (N)). The priority pragma line is erased
// (it stays an empty line, so the lines keep their numbers).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: not grep -n '^#pragma' %t.c
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void f(double *u, int peer, int steps, int level) {
  MPI_Request req[2];
  // Right before the olap pragma.
  // CHECK: { /* tucana: superblock bamboo_priority.c:[[#SB:@LINE+4]], regions receive compute (translated by tucana-translate) */
  // CHECK: #line [[#SB+1]] "{{.*}}bamboo_priority.c"
  // CHECK-NEXT: for (int s = 0; s < steps; s++) { tucana_sb_priority(tucana_sb0, -1, (level + 1)); for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma bamboo priority(level + 1)
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
#pragma bamboo receive
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  }
  // Inside an olap block, and right before the block.
  // CHECK: for (int s = 0; s < steps; s++) { tucana_sb_priority(tucana_sb1, -1, (-1)); for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
  // CHECK: for (int s = 0; s < steps; s++) { tucana_sb_priority(tucana_sb2, -1, (2 * level)); for (int tucana_sb2_r; (tucana_sb2_r = tucana_sb_next(tucana_sb2)) >= 0;) switch (tucana_sb2_r) {
  for (int s = 0; s < steps; s++) {
#pragma bamboo olap
    {
#pragma bamboo priority(-1)
#pragma bamboo send
      MPI_Isend(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    }
  }
  for (int s = 0; s < steps; s++) {
#pragma bamboo priority(2 * level)
#pragma bamboo olap
    {
#pragma bamboo send
      MPI_Isend(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    }
  }
  // Before a compute statement inside the olap loop.
  // CHECK: for (int s = 0; s < steps; s++) { tucana_sb_priority(tucana_sb3, -1, (5)); for (int tucana_sb3_r; (tucana_sb3_r = tucana_sb_next(tucana_sb3)) >= 0;) switch (tucana_sb3_r) {
  // CHECK: case 1: { /* region compute */ MPI_Wait(&req[0], MPI_STATUS_IGNORE); tucana_sb_ran(tucana_sb3, 1); break; }
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
#pragma bamboo receive
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma bamboo priority(5)
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  }
}
