// The Bamboo front end: '#pragma bamboo olap' on a loop makes it a
// superblock; '#pragma bamboo receive' and '#pragma bamboo send' mark its
// receive and send blocks, and the rest of the body, statement runs between
// the blocks, are its compute parts (named compute, or compute1, compute2,
// ... when there are several). The pragma lines of the blocks become
// 'case K: {'; a compute part has no pragma line, so its 'case K: {' goes
// right before its first statement, on the same line.
//
// The graph is Bamboo's partial order: receive blocks in order, send blocks
// in order, each independent of the other kind; a compute part after every
// part before it; a send block after its own previous iteration, a compute
// part after the last send block of the previous iteration (the send
// buffers are reused).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %cxx -x c++ -fsyntax-only -Wall -Wextra -Werror %mpi-flags %t.c

#include <mpi.h>

void halo(double *u, int n, int left, int right, int steps) {
  MPI_Request req[4];
  // CHECK: { /* tucana: superblock bamboo_olap_loop.c:[[#SB:@LINE+14]], regions receive send compute (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}0, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}1, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}0, 0}, {1, 0}, {1, 1}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK-NEXT:       {"receive", TUCANA_REGION_RECEIVE, 1, tucana_sb0_deps_0},
  // CHECK-NEXT:       {"send", TUCANA_REGION_SEND, 1, tucana_sb0_deps_1},
  // CHECK-NEXT:       {"compute", TUCANA_REGION_COMPUTE, 3, tucana_sb0_deps_2},
  // CHECK-NEXT:   };
  // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb0_desc = {"bamboo_olap_loop.c:[[#SB]]", 3, tucana_sb0_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#SB+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int s = 0; s < steps; s++) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
  // CHECK-NEXT: case 0: { /* region receive */
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
#pragma bamboo receive
    {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
    }
    // CHECK: } tucana_sb_ran(tucana_sb0, 0); break; }
    // CHECK: case 1: { /* region send */
#pragma bamboo send
    {
      MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    }
    // The compute part: every statement after the send block.
    // CHECK: } tucana_sb_ran(tucana_sb0, 1); break; }
    // CHECK: case 2: { /* region compute */ MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:     for (int i = 1; i <= n; i++)
    // CHECK-NEXT:       u[i] = 0.5 * (u[i - 1] + u[i + 1]); tucana_sb_ran(tucana_sb0, 2); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= n; i++)
      u[i] = 0.5 * (u[i - 1] + u[i + 1]);
  }
}

// Compute parts before, between and after the blocks: compute1, compute2,
// compute3, each after everything before it.
void parts(double *u, int peer, int steps) {
  MPI_Request req[2];
  // CHECK: { /* tucana: superblock bamboo_olap_loop.c:[[#SB1:@LINE+17]], regions compute1 receive compute2 send compute3 (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_0[] = {{[{][{]}}3, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_1[] = {{[{][{]}}0, 0}, {1, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_2[] = {{[{][{]}}1, 0}, {0, 0}, {3, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_3[] = {{[{][{]}}2, 0}, {3, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_4[] = {{[{][{]}}1, 0}, {3, 0}, {2, 0}, {3, 1}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb1_regions[] = {
  // CHECK-NEXT:       {"compute1", TUCANA_REGION_COMPUTE, 1, tucana_sb1_deps_0},
  // CHECK-NEXT:       {"receive", TUCANA_REGION_RECEIVE, 2, tucana_sb1_deps_1},
  // CHECK-NEXT:       {"compute2", TUCANA_REGION_COMPUTE, 3, tucana_sb1_deps_2},
  // CHECK-NEXT:       {"send", TUCANA_REGION_SEND, 2, tucana_sb1_deps_3},
  // CHECK-NEXT:       {"compute3", TUCANA_REGION_COMPUTE, 4, tucana_sb1_deps_4},
  // CHECK-NEXT:   };
  // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb1_desc = {"bamboo_olap_loop.c:[[#SB1]]", 5, tucana_sb1_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb1 = tucana_sb_begin(&tucana_sb1_desc);
  // CHECK-NEXT: #line [[#SB1+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int s = 0; s < steps; s++) { for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
    // CHECK: case 0: { /* region compute1 */ u[3] = s; tucana_sb_ran(tucana_sb1, 0); break; }
    u[3] = s;
    // CHECK: case 1: { /* region receive */
    // CHECK-NEXT:     MPI_Irecv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]); tucana_sb_ran(tucana_sb1, 1); break; }
#pragma bamboo receive
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK: case 2: { /* region compute2 */ MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    // CHECK-NEXT:     u[1] = u[0] + u[3]; tucana_sb_ran(tucana_sb1, 2); break; }
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    u[1] = u[0] + u[3];
    // CHECK: case 3: { /* region send */
#pragma bamboo send
    MPI_Isend(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK: case 4: { /* region compute3 */ MPI_Wait(&req[1], MPI_STATUS_IGNORE); tucana_sb_ran(tucana_sb1, 4); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb1); }
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  }
}
