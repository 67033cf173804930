// Tucana's own spelling, '#pragma tucana superblock|receive|send|compute',
// means the same as Toucan's: the same region table, the same default graph,
// the same dispatch as toucan_form_default_graph.c. The graph follows the
// regions' roles, not their order in the loop (second function).
//
// The translation is a few small edits; every line of the input keeps its
// number: the superblock pragma line becomes the region tables and
// tucana_sb_begin (then a #line back to the loop's line), the loop header
// stays as written, the body's '{' opens the dispatch of one iteration, each
// region pragma line becomes 'case K: {', each region ends with
// tucana_sb_ran, and tucana_sb_end follows the loop. MPI_Waitall stays an
// MPI call (the runtime checks that the region's dependencies cover it).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// The translation of C is also valid C++:
// RUN: %cxx -x c++ -fsyntax-only -Wall -Wextra -Werror %mpi-flags %t.c

// The runtime's header goes right before the first function with a
// superblock, after the program's own includes.
// CHECK: #include <mpi.h>
// CHECK-EMPTY:
// CHECK-NEXT: #include <tucana/superblock.h>
// CHECK-NEXT: #line [[@LINE+4]] "[[FILE]]"
// CHECK-NEXT: void exchange(double *halo, double *edge, int left, int right, int steps) {
#include <mpi.h>

void exchange(double *halo, double *edge, int left, int right, int steps) {
  MPI_Request req[4];
  // CHECK: { /* tucana: superblock tucana_spelling.c:[[#SB0:@LINE+13]], regions receive send compute (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}2, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}2, 1}, {1, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}0, 0}, {1, 0}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK-NEXT:       {"receive", TUCANA_REGION_RECEIVE, 1, tucana_sb0_deps_0},
  // CHECK-NEXT:       {"send", TUCANA_REGION_SEND, 2, tucana_sb0_deps_1},
  // CHECK-NEXT:       {"compute", TUCANA_REGION_COMPUTE, 2, tucana_sb0_deps_2},
  // CHECK-NEXT:   };
  // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb0_desc = {"tucana_spelling.c:[[#SB0]]", 3, tucana_sb0_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#SB0+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int s = 0; s < steps; ++s) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma tucana superblock
  for (int s = 0; s < steps; ++s) {
    // CHECK: case 0: { /* region receive */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Irecv(&halo[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK-NEXT:       MPI_Irecv(&halo[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana receive
    {
      MPI_Irecv(&halo[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(&halo[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
    }
    // CHECK: case 1: { /* region send */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Isend(&edge[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[2]);
    // CHECK-NEXT:       MPI_Isend(&edge[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 1); break; }
#pragma tucana send
    {
      MPI_Isend(&edge[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(&edge[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    }
    // CHECK: case 2: { /* region compute */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:       edge[0] = halo[1];
    // CHECK-NEXT:       edge[1] = halo[0];
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 2); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
    // CHECK-NEXT: }
#pragma tucana compute
    {
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      edge[0] = halo[1];
      edge[1] = halo[0];
    }
  }
}

// The same three roles written compute, send, receive: region i of the table
// is the i-th in the loop, and each gets the dependencies of its role.
void reversed(double *halo, double *edge, int peer, int steps) {
  MPI_Request req[2];
  // CHECK: { /* tucana: superblock tucana_spelling.c:[[#SB1:@LINE+16]], regions compute send receive (translated by tucana-translate) */
  // compute(i) after receive(i) and send(i): regions 2 and 1.
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
  // CHECK-NEXT:   tucana_superblock *tucana_sb1 = tucana_sb_begin(&tucana_sb1_desc);
  // CHECK-NEXT: #line [[#SB1+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int s = 0; s < steps; ++s) { for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
#pragma tucana superblock
  for (int s = 0; s < steps; ++s) {
    // CHECK: case 0: { /* region compute */
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      edge[0] = halo[0];
    }
    // A region of one statement ends right after its ';'.
    // CHECK: case 1: { /* region send */
    // CHECK-NEXT:     MPI_Isend(&edge[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]); tucana_sb_ran(tucana_sb1, 1); break; }
#pragma tucana send
    MPI_Isend(&edge[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK: case 2: { /* region receive */
    // CHECK-NEXT:     MPI_Irecv(&halo[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]); tucana_sb_ran(tucana_sb1, 2); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb1); }
#pragma tucana receive
    MPI_Irecv(&halo[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
  }
}
