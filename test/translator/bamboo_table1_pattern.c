// The Bamboo pattern (the directives of the Bamboo paper's Table 1 on a
// halo exchange): '#pragma bamboo olap' on the time loop, a receive block
// that posts a receive per neighbour, a send block that packs and posts a
// send per neighbour, and the rest of the body (the wait, the unpacking and
// the stencil) as the compute part. The program runs under Tucana with two
// subranks and prints the same as under plain MPI with two ranks.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

#define N 8
#define STEPS 5

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int nbr[2] = {(rank + size - 1) % size, (rank + 1) % size};
  double u[N + 2], v[N + 2], sendbuf[2], recvbuf[2];
  MPI_Request req[4];
  for (int i = 0; i < N + 2; i++)
    u[i] = rank * N + i;

  // CHECK: { /* tucana: superblock bamboo_table1_pattern.c:{{[0-9]+}}, regions receive send compute (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_0[] = {{[{][{]}}0, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_1[] = {{[{][{]}}1, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}0, 0}, {1, 0}, {1, 1}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK-NEXT:       {"receive", TUCANA_REGION_RECEIVE, 1, tucana_sb0_deps_0},
  // CHECK-NEXT:       {"send", TUCANA_REGION_SEND, 1, tucana_sb0_deps_1},
  // CHECK-NEXT:       {"compute", TUCANA_REGION_COMPUTE, 3, tucana_sb0_deps_2},
  // CHECK-NEXT:   };
#pragma bamboo olap
  for (int t = 0; t < STEPS; t++) {
#pragma bamboo receive
    for (int d = 0; d < 2; d++)
      MPI_Irecv(&recvbuf[d], 1, MPI_DOUBLE, nbr[d], 1 - d, MPI_COMM_WORLD, &req[d]);
    // CHECK: case 1: { /* region send */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       sendbuf[0] = u[1];
    // CHECK-NEXT:       sendbuf[1] = u[N];
    // CHECK-NEXT:       for (int d = 0; d < 2; d++)
    // CHECK-NEXT:         MPI_Isend(&sendbuf[d], 1, MPI_DOUBLE, nbr[d], d, MPI_COMM_WORLD, &req[2 + d]);
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 1); break; }
#pragma bamboo send
    {
      sendbuf[0] = u[1];
      sendbuf[1] = u[N];
      for (int d = 0; d < 2; d++)
        MPI_Isend(&sendbuf[d], 1, MPI_DOUBLE, nbr[d], d, MPI_COMM_WORLD, &req[2 + d]);
    }
    // CHECK: case 2: { /* region compute */ MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:     u[0] = recvbuf[0];
    // CHECK-NEXT:     u[N + 1] = recvbuf[1];
    // CHECK-NEXT:     for (int i = 1; i <= N; i++)
    // CHECK-NEXT:       v[i] = 0.5 * (u[i - 1] + u[i + 1]);
    // CHECK-NEXT:     for (int i = 1; i <= N; i++)
    // CHECK-NEXT:       u[i] = v[i]; tucana_sb_ran(tucana_sb0, 2); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    u[0] = recvbuf[0];
    u[N + 1] = recvbuf[1];
    for (int i = 1; i <= N; i++)
      v[i] = 0.5 * (u[i - 1] + u[i + 1]);
    for (int i = 1; i <= N; i++)
      u[i] = v[i];
  }

  double sum = 0.0;
  for (int i = 1; i <= N; i++)
    sum += u[i];
  printf("rank %d: %.6f %.6f %.6f\n", rank, u[1], u[N], sum);
  MPI_Finalize();
  return 0;
}

// The same as plain MPI with two ranks (mpicc, mpirun -np 2).
// OUT-DAG: rank 0: 9.000000 8.000000 51.000000
// OUT-DAG: rank 1: 9.000000 8.000000 85.000000
