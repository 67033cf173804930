// '#pragma bamboo olap' on a { } block in a loop's body: the loop is the
// superblock. The olap pragma line is erased (it stays an empty line); the
// tables go right before the loop, on its line, followed by a #line with the
// loop's line. The block is opened in place: its receive and send blocks are
// regions, and every other statement of the loop body, inside the block or
// around it, belongs to a compute part. The block's own braces stay where
// they are (a case label inside them is still in the switch).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: not grep -n '^#pragma' %t.c
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void blk(double *u, int peer, int steps) {
  MPI_Request req[2];
  double t = 0;
  // CHECK: { /* tucana: superblock bamboo_olap_block.c:[[#FOR:@LINE+17]], regions compute1 receive compute2 send compute3 (translated by tucana-translate) */
  // CHECK-NEXT:     static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}3, 1}};
  // CHECK-NEXT:     static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}0, 0}, {1, 1}};
  // CHECK-NEXT:     static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}1, 0}, {0, 0}, {3, 1}};
  // CHECK-NEXT:     static const tucana_dependency tucana_sb0_deps_3[] = {{[{][{]}}2, 0}, {3, 1}};
  // CHECK-NEXT:     static const tucana_dependency tucana_sb0_deps_4[] = {{[{][{]}}1, 0}, {3, 0}, {2, 0}, {3, 1}};
  // CHECK-NEXT:     static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK-NEXT:         {"compute1", TUCANA_REGION_COMPUTE, 1, tucana_sb0_deps_0},
  // CHECK-NEXT:         {"receive", TUCANA_REGION_RECEIVE, 2, tucana_sb0_deps_1},
  // CHECK-NEXT:         {"compute2", TUCANA_REGION_COMPUTE, 3, tucana_sb0_deps_2},
  // CHECK-NEXT:         {"send", TUCANA_REGION_SEND, 2, tucana_sb0_deps_3},
  // CHECK-NEXT:         {"compute3", TUCANA_REGION_COMPUTE, 4, tucana_sb0_deps_4},
  // CHECK-NEXT:     };
  // CHECK-NEXT:     static const tucana_superblock_desc tucana_sb0_desc = {"bamboo_olap_block.c:[[#FOR]]", 5, tucana_sb0_regions};
  // CHECK-NEXT:     tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#FOR]] "[[FILE]]"
  // CHECK-NEXT:   for (int s = 0; s < steps; s++) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
  for (int s = 0; s < steps; s++) {
    // CHECK: case 0: { /* region compute1 */ t += 1; tucana_sb_ran(tucana_sb0, 0); break; }
    // CHECK-EMPTY:
    // CHECK-NEXT:     {
    t += 1;
#pragma bamboo olap
    {
      // CHECK: case 1: { /* region receive */
      // CHECK-NEXT:       MPI_Irecv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]); tucana_sb_ran(tucana_sb0, 1); break; }
#pragma bamboo receive
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      // CHECK: case 2: { /* region compute2 */ MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      // CHECK-NEXT:       u[1] = u[0]; tucana_sb_ran(tucana_sb0, 2); break; }
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      u[1] = u[0];
      // CHECK: case 3: { /* region send */
      // CHECK-NEXT:       MPI_Isend(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]); tucana_sb_ran(tucana_sb0, 3); break; }
#pragma bamboo send
      MPI_Isend(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      // The last compute part runs on past the block's '}'.
      // CHECK: case 4: { /* region compute3 */ MPI_Wait(&req[1], MPI_STATUS_IGNORE);
      // CHECK-NEXT:     }
      // CHECK-NEXT:     t -= 1; tucana_sb_ran(tucana_sb0, 4); break; }
      // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    }
    t -= 1;
  }
  (void)t;
}
