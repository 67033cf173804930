// The Toucan form: '#pragma toucan superblock' on a for loop whose body is
// one receive, one send and one compute region. The regions get the default
// graph of SPEC.md (per iteration i): receive(i) after compute(i-1); send(i)
// after compute(i-1) and send(i-1); compute(i) after receive(i) and send(i).
// The loop keeps its header; each iteration's body becomes a dispatch loop
// over tucana_sb_next, and every line keeps its number.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

// The runtime's header comes right before main, after the program's includes;
// a #line puts the numbering back.
// CHECK: #include <stdio.h>
// CHECK-EMPTY:
// CHECK-NEXT: #include <tucana/superblock.h>
// CHECK-NEXT: #line [[@LINE+5]] "[[FILE]]"
// CHECK-NEXT: int main(int argc, char **argv) {
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double inbox = 0.0, outbox = 0.0, sum = 0.0;
  MPI_Request req[2];

  // The pragma line becomes a block with the region table, in source order,
  // with the default graph, and the superblock's start.
  // CHECK: { /* tucana: superblock toucan_form_default_graph.c:[[#SB:@LINE+13]], regions receive send compute (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}2, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}2, 1}, {1, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}0, 0}, {1, 0}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK-NEXT:       {"receive", TUCANA_REGION_RECEIVE, 1, tucana_sb0_deps_0},
  // CHECK-NEXT:       {"send", TUCANA_REGION_SEND, 2, tucana_sb0_deps_1},
  // CHECK-NEXT:       {"compute", TUCANA_REGION_COMPUTE, 2, tucana_sb0_deps_2},
  // CHECK-NEXT:   };
  // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb0_desc = {"toucan_form_default_graph.c:[[#SB]]", 3, tucana_sb0_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#SB+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int it = 0; it < 10; it++) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma toucan superblock
  for (int it = 0; it < 10; it++) {
    // Comments and blank lines between the regions stay where they are.
    //
    // CHECK: case 0: { /* region receive */
    // CHECK-NEXT:     MPI_Irecv(&inbox, 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[0]); tucana_sb_ran(tucana_sb0, 0); break; }
    // CHECK-EMPTY:
#pragma toucan receive
    MPI_Irecv(&inbox, 1, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[0]);

    // CHECK: case 1: { /* region send */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       outbox = 100.0 * rank + it;
    // CHECK-NEXT:       MPI_Isend(&outbox, 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[1]);
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 1); break; }
#pragma toucan send
    {
      outbox = 100.0 * rank + it;
      MPI_Isend(&outbox, 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[1]);
    }

    // The wait stays an MPI call.
    // CHECK: case 2: { /* region compute */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:       sum += inbox;
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 2); break; }
#pragma toucan compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      sum += inbox;
    }

    // The body's '}' closes the dispatch first; after the loop the superblock
    // ends, and its block closes.
    // CHECK: } } tucana_sb_end(tucana_sb0); }
    // CHECK-EMPTY:
    // CHECK-NEXT:   double total = 0.0;
  }

  double total = 0.0;
  MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d of %d: sum %g\n", rank, size, sum);
  if (rank == 0)
    printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}

// Rank r receives 100 * left + it from its left neighbour in iteration it.
// OUT-DAG: rank 0 of 2: sum 1045
// OUT-DAG: rank 1 of 2: sum 45
// OUT-DAG: total 1090
