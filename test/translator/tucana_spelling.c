// Tucana's own spelling, '#pragma tucana superblock|receive|send|compute',
// means the same as Toucan's: the same region table, the same default graph,
// the same dispatch loop as toucan_form_default_graph.c. The graph follows
// the regions' roles, not their order in the loop (second function).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// The translation of C is also valid C++:
// RUN: %cxx -x c++ -fsyntax-only -Wall -Wextra -Werror %mpi-flags %t.c

// CHECK: #include <tucana/superblock.h>
// CHECK-NEXT: #line 1 "[[FILE]]"
#include <mpi.h>

void exchange(double *halo, double *edge, int left, int right, int steps) {
  MPI_Request req[4];
  // CHECK: /* tucana: superblock tucana_spelling.c:[[#SB0:@LINE+1]], regions receive send compute (translated by tucana-translate) */
#pragma tucana superblock
  for (int s = 0; s < steps; ++s) {
    // CHECK-NEXT: {
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}2, 1}};
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}2, 1}, {1, 1}};
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}0, 0}, {1, 0}};
    // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
    // CHECK-NEXT:       {"receive", TUCANA_REGION_RECEIVE, 1, tucana_sb0_deps_0},
    // CHECK-NEXT:       {"send", TUCANA_REGION_SEND, 2, tucana_sb0_deps_1},
    // CHECK-NEXT:       {"compute", TUCANA_REGION_COMPUTE, 2, tucana_sb0_deps_2},
    // CHECK-NEXT:   };
    // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb0_desc = {"tucana_spelling.c:[[#SB0]]", 3, tucana_sb0_regions};
    // CHECK-NEXT:   int tucana_sb0_it[3];
    // CHECK-NEXT:   tucana_superblock *tucana_sb0;
    // CHECK-NEXT:   {
    // CHECK-NEXT:     int s = 0;
    // CHECK-NEXT:     tucana_sb0_it[0] = s;
    // CHECK-NEXT:     tucana_sb0_it[1] = s;
    // CHECK-NEXT:     tucana_sb0_it[2] = s;
    // CHECK-NEXT:   }
    // CHECK-NEXT:   tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
    // CHECK-NEXT:   for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) {
    // CHECK-NEXT:     switch (tucana_sb0_r) {
    // CHECK-NEXT:     case 0: { /* region receive */
    // CHECK-NEXT:       int s = tucana_sb0_it[0];
    // CHECK-NEXT:       if (!(s < steps)) {
    // CHECK-NEXT:         tucana_sb_finish(tucana_sb0, 0);
    // CHECK-NEXT:         break;
    // CHECK-NEXT:       }
    // CHECK-NEXT: #line [[@LINE+9]] "[[FILE]]"
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Irecv(&halo[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK-NEXT:       MPI_Irecv(&halo[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK-NEXT:     }
    // CHECK-NEXT:       ++s;
    // CHECK-NEXT:       tucana_sb0_it[0] = s;
    // CHECK-NEXT:       tucana_sb_ran(tucana_sb0, 0);
#pragma tucana receive
    {
      MPI_Irecv(&halo[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(&halo[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
    }
    // CHECK:     case 1: { /* region send */
    // CHECK-NEXT:       int s = tucana_sb0_it[1];
    // CHECK-NEXT:       if (!(s < steps)) {
    // CHECK-NEXT:         tucana_sb_finish(tucana_sb0, 1);
    // CHECK-NEXT:         break;
    // CHECK-NEXT:       }
    // CHECK-NEXT: #line [[@LINE+9]] "[[FILE]]"
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Isend(&edge[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[2]);
    // CHECK-NEXT:       MPI_Isend(&edge[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    // CHECK-NEXT:     }
    // CHECK-NEXT:       ++s;
    // CHECK-NEXT:       tucana_sb0_it[1] = s;
    // CHECK-NEXT:       tucana_sb_ran(tucana_sb0, 1);
#pragma tucana send
    {
      MPI_Isend(&edge[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(&edge[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    }
    // CHECK:     case 2: { /* region compute */
    // CHECK-NEXT:       int s = tucana_sb0_it[2];
    // CHECK-NEXT:       if (!(s < steps)) {
    // CHECK-NEXT:         tucana_sb_finish(tucana_sb0, 2);
    // CHECK-NEXT:         break;
    // CHECK-NEXT:       }
    // CHECK-NEXT: #line [[@LINE+8]] "[[FILE]]"
    // CHECK-NEXT:     {
    // CHECK-NEXT:       tucana_sb_waitall(tucana_sb0, 4, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:       edge[0] = halo[1];
    // CHECK-NEXT:       edge[1] = halo[0];
    // CHECK-NEXT:     }
    // CHECK-NEXT:       ++s;
#pragma tucana compute
    {
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      edge[0] = halo[1];
      edge[1] = halo[0];
    }
    // CHECK:   tucana_sb_end(tucana_sb0);
    // CHECK-NEXT: }
    // CHECK-NEXT: #line [[@LINE+1]] "[[FILE]]"
  }
}

// The same three roles written compute, send, receive: region i of the table
// is the i-th in the loop, and each gets the dependencies of its role.
void reversed(double *halo, double *edge, int peer, int steps) {
  MPI_Request req[2];
  // CHECK: /* tucana: superblock tucana_spelling.c:[[#SB1:@LINE+1]], regions compute send receive (translated by tucana-translate) */
#pragma tucana superblock
  for (int s = 0; s < steps; ++s) {
    // compute(i) after receive(i) and send(i): regions 2 and 1.
    // CHECK-NEXT: {
    // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_0[] = {{[{][{]}}2, 0}, {1, 0}};
    // send(i) after compute(i-1) and send(i-1).
    // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_1[] = {{[{][{]}}0, 1}, {1, 1}};
    // receive(i) after compute(i-1).
    // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_2[] = {{[{][{]}}0, 1}};
    // CHECK-NEXT:   static const tucana_region_desc tucana_sb1_regions[] = {
    // CHECK-NEXT:       {"compute", TUCANA_REGION_COMPUTE, 2, tucana_sb1_deps_0},
    // CHECK-NEXT:       {"send", TUCANA_REGION_SEND, 2, tucana_sb1_deps_1},
    // CHECK-NEXT:       {"receive", TUCANA_REGION_RECEIVE, 1, tucana_sb1_deps_2},
    // CHECK-NEXT:   };
    // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb1_desc = {"tucana_spelling.c:[[#SB1]]", 3, tucana_sb1_regions};
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      edge[0] = halo[0];
    }
#pragma tucana send
    MPI_Isend(&edge[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana receive
    MPI_Irecv(&halo[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
  }
}
