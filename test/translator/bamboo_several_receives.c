// Several receive blocks (and several send blocks) in one olap loop: they
// are named receive1, receive2, ... and send1, send2, ... in source order,
// and each depends on the one before it of its kind, in the same iteration
// (a chain, so that messages with the same source and tag stay in order);
// a receive or send block also depends on itself in the previous iteration
// (its buffers are reused). Receive
// and send blocks do not depend on each other; the compute part depends on
// the last block of each kind (so, through the chains, on every block) and
// on the last send block of the previous iteration.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void f(double *u, int n, int north, int south, int steps) {
  MPI_Request req[6];
  // receive1: receive1*; receive2: receive1, receive2*; receive3: receive2, receive3*.
  // send1: send1*; send2: send1, send2*.
  // compute: receive3, send2, send2*.
  // CHECK: { /* tucana: superblock bamboo_several_receives.c:[[#SB:@LINE+20]], regions receive1 receive2 send1 receive3 send2 compute (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}0, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}0, 0}, {1, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}2, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_3[] = {{[{][{]}}1, 0}, {3, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_4[] = {{[{][{]}}2, 0}, {4, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_5[] = {{[{][{]}}3, 0}, {4, 0}, {4, 1}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK-NEXT:       {"receive1", TUCANA_REGION_RECEIVE, 1, tucana_sb0_deps_0},
  // CHECK-NEXT:       {"receive2", TUCANA_REGION_RECEIVE, 2, tucana_sb0_deps_1},
  // CHECK-NEXT:       {"send1", TUCANA_REGION_SEND, 1, tucana_sb0_deps_2},
  // CHECK-NEXT:       {"receive3", TUCANA_REGION_RECEIVE, 2, tucana_sb0_deps_3},
  // CHECK-NEXT:       {"send2", TUCANA_REGION_SEND, 2, tucana_sb0_deps_4},
  // CHECK-NEXT:       {"compute", TUCANA_REGION_COMPUTE, 3, tucana_sb0_deps_5},
  // CHECK-NEXT:   };
  // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb0_desc = {"bamboo_several_receives.c:[[#SB]]", 6, tucana_sb0_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#SB+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int s = 0; s < steps; s++) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
  // CHECK-NEXT: case 0: { /* region receive1 */
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
#pragma bamboo receive
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, north, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK: case 1: { /* region receive2 */
#pragma bamboo receive
    MPI_Irecv(&u[1], 1, MPI_DOUBLE, north, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK: case 2: { /* region send1 */
#pragma bamboo send
    MPI_Isend(&u[n - 2], 1, MPI_DOUBLE, south, 0, MPI_COMM_WORLD, &req[2]);
    // CHECK: case 3: { /* region receive3 */
#pragma bamboo receive
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, south, 1, MPI_COMM_WORLD, &req[3]);
    // CHECK: case 4: { /* region send2 */
#pragma bamboo send
    MPI_Isend(&u[n - 1], 1, MPI_DOUBLE, south, 0, MPI_COMM_WORLD, &req[4]);
    // CHECK: case 5: { /* region compute */ MPI_Waitall(5, req, MPI_STATUSES_IGNORE);
    MPI_Waitall(5, req, MPI_STATUSES_IGNORE);
    u[2] = u[0] + u[1] + u[n + 1];
  }
}
