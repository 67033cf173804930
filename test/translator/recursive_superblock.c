// A superblock in a recursive function: the recursive call runs inside a
// region and starts the same superblock again, one level deeper (the runtime
// keeps a stack of active superblocks per subrank). The region tables are
// static constants, shared by all levels; the superblock handle is a local,
// one per call. Superblocks are numbered in
// the order of the file: tucana_sb0 in level(), tucana_sb1 in main().
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

// Each level exchanges its depth with the neighbours twice and adds what it
// got plus the sum of the level below: acc(d) = 2 * (d + acc(d - 1)).
static double level(int depth, int left, int right) {
  double mine = depth, got = 0.0, acc = 0.0;
  MPI_Request req[2];
  // CHECK: { /* tucana: superblock recursive_superblock.c:[[#SB0:@LINE+7]], regions receive send compute (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}2, 1}};
  // CHECK:   static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK:   static const tucana_superblock_desc tucana_sb0_desc = {"recursive_superblock.c:[[#SB0]]", 3, tucana_sb0_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#SB0+1]] "{{.*}}recursive_superblock.c"
  // CHECK-NEXT:   for (int it = 0; it < 2; it++) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, depth, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&mine, 1, MPI_DOUBLE, right, depth, MPI_COMM_WORLD, &req[1]);
    // CHECK: case 2: { /* region compute */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:       acc += got;
    // CHECK-NEXT:       if (depth > 0)
    // CHECK-NEXT:         acc += level(depth - 1, left, right);
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 2); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      acc += got;
      if (depth > 0)
        acc += level(depth - 1, left, right);
    }
  }
  return acc;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double total = 0.0;
  // The second superblock of the file, outside the recursion.
  // CHECK: { /* tucana: superblock recursive_superblock.c:[[#SB1:@LINE+10]], regions deep (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb1_deps_0[] = {{[{][{]}}0, 1}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb1_regions[] = {
  // CHECK-NEXT:       {"deep", TUCANA_REGION_OTHER, 1, tucana_sb1_deps_0},
  // CHECK-NEXT:   };
  // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb1_desc = {"recursive_superblock.c:[[#SB1]]", 1, tucana_sb1_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb1 = tucana_sb_begin(&tucana_sb1_desc);
  // CHECK-NEXT: #line [[#SB1+1]] "{{.*}}recursive_superblock.c"
  // CHECK-NEXT:   for (int d = 1; d <= 3; d++) { for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
  // CHECK: } } tucana_sb_end(tucana_sb1); }
#pragma tucana superblock
  for (int d = 1; d <= 3; d++) {
#pragma tucana region(deep) depends(deep*)
    total += level(d, left, right);
  }
  printf("rank %d: total %g\n", rank, total);
  MPI_Finalize();
  return 0;
}

// acc(0) = 0, acc(1) = 2, acc(2) = 8, acc(3) = 22: total 32.
// OUT-DAG: rank 0: total 32
// OUT-DAG: rank 1: total 32
