// The MATE spelling (2017 slides): '#pragma mate region(NAME) depends(...)'
// directly in the body of a plain for loop, with no superblock pragma. Such
// a loop is a superblock; its regions are named, their kind is
// TUCANA_REGION_OTHER, and the graph is exactly the depends clauses:
// 'x' = region x of the same iteration, 'x*' = region x of the previous one.
// A plain for loop without region pragmas stays as it is. `interior` only
// touches its own local and depends on itself alone: the loop runs in the
// lookahead form (docs/translator.md), interior running ahead of the ring.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    double in = 0.0, out = 0.0, acc = 0.0, local = 0.0, warmup[4];
    MPI_Request req[2];

    // CHECK: for (int k = 0; k < 4; k++)
    // CHECK-NEXT: warmup[k] = k;
    for (int k = 0; k < 4; k++)
        warmup[k] = k;

    // There is no pragma line: the tables go right before the 'for', on its
    // line, and a #line gives the 'for' its own number back.
    // CHECK: { /* tucana: superblock mate_graph_implicit_superblock.c:[[#SB:@LINE+20]], regions recv_halo pack send_halo interior update, lookahead (translated by tucana-translate) */
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}4, 1}};
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}4, 1}, {2, 1}};
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}1, 0}};
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_3[] = {{[{][{]}}3, 1}};
    // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_4[] = {{[{][{]}}0, 0}, {2, 0}, {3, 0}};
    // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
    // CHECK-NEXT:       {"recv_halo", TUCANA_REGION_OTHER, 1, tucana_sb0_deps_0},
    // CHECK-NEXT:       {"pack", TUCANA_REGION_OTHER, 2, tucana_sb0_deps_1},
    // CHECK-NEXT:       {"send_halo", TUCANA_REGION_OTHER, 1, tucana_sb0_deps_2},
    // CHECK-NEXT:       {"interior", TUCANA_REGION_OTHER, 1, tucana_sb0_deps_3},
    // CHECK-NEXT:       {"update", TUCANA_REGION_OTHER, 3, tucana_sb0_deps_4},
    // CHECK-NEXT:   };
    // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb0_desc = {"mate_graph_implicit_superblock.c:[[#SB]]", 5, tucana_sb0_regions};
    // CHECK-NEXT:   long long tucana_sb0_start = (long long)(int)(0), tucana_sb0_end = (long long)(8), tucana_sb0_step = (long long)(1);
    // CHECK-NEXT:   long long tucana_sb0_trips = tucana_sb0_step > 0 && tucana_sb0_start < tucana_sb0_end ? (tucana_sb0_end - tucana_sb0_start + tucana_sb0_step - 1) / tucana_sb0_step : 0;
    // CHECK-NEXT:   tucana_superblock *tucana_sb0 = tucana_sb_begin_ahead(&tucana_sb0_desc, tucana_sb0_trips);
    // CHECK-NEXT: #line [[#SB]] "[[FILE]]"
    // CHECK-NEXT:     for (int step = 0; step < 8; step++) { long long tucana_sb0_k; for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next_ahead(tucana_sb0, &tucana_sb0_k)) >= 0;) { step = (int)(tucana_sb0_start + tucana_sb0_k * tucana_sb0_step); switch (tucana_sb0_r) {
    // CHECK-NEXT: case 0: { /* region recv_halo */
    for (int step = 0; step < 8; step++) {
#pragma mate region(recv_halo) depends(update*)
        MPI_Irecv(&in, 1, MPI_DOUBLE, left, step, MPI_COMM_WORLD, &req[0]);
#pragma mate region(pack) depends(update*, send_halo*)
        out = 10.0 * rank + step;
#pragma mate region(send_halo) depends(pack)
        MPI_Isend(&out, 1, MPI_DOUBLE, right, step, MPI_COMM_WORLD, &req[1]);
#pragma mate region(interior) depends(interior*)
        local += step;
        // CHECK: case 4: { /* region update */
        // CHECK-NEXT:         {
        // CHECK-NEXT:             MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        // CHECK-NEXT:             acc += in;
        // CHECK-NEXT:         } tucana_sb_ran(tucana_sb0, 4); break; }
        // CHECK-NEXT:     } } break; } tucana_sb_end(tucana_sb0); }
#pragma mate region(update) depends(recv_halo, send_halo, interior)
        {
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
            acc += in;
        }
    }

    printf("rank %d: acc %g local %g warmup %g\n", rank, acc, local, warmup[3]);
    MPI_Finalize();
    return 0;
}

// Rank r receives 10 * left + step in each of the 8 steps.
// OUT-DAG: rank 0: acc 108 local 28 warmup 3
// OUT-DAG: rank 1: acc 28 local 28 warmup 3
