// Receive and send blocks whose calls are conditional (a rank at the edge
// has no neighbour there): the block is still one region, which may post
// nothing in an iteration; the blocking calls under the 'if's are posted
// like any other. (Whether a buffer is named later in the block is a matter
// of the text, not of the branches: each call here has its own buffer and
// status; see blocking_calls_reinterpreted.c.)
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void relax(double *u, double *lo, double *hi, double *out_lo, double *out_hi, int n, int rank, int size,
           int steps) {
  MPI_Status st_lo, st_hi;
  // CHECK: { /* tucana: superblock bamboo_conditional_receives.c:{{[0-9]+}}, regions receive send compute (translated by tucana-translate) */
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
    // CHECK: case 0: { /* region receive */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       if (rank == 0)
    // CHECK-NEXT:         *lo = 0.0;
    // CHECK-NEXT:       else
    // CHECK-NEXT:         tucana_sb_recv(lo, 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, &st_lo);
    // CHECK-NEXT:       if (rank < size - 1)
    // CHECK-NEXT:         tucana_sb_recv(hi, 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, &st_hi);
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 0); break; }
#pragma bamboo receive
    {
      if (rank == 0)
        *lo = 0.0;
      else
        MPI_Recv(lo, 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, &st_lo);
      if (rank < size - 1)
        MPI_Recv(hi, 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, &st_hi);
    }
    // CHECK: case 1: { /* region send */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       if (rank > 0)
    // CHECK-NEXT:         tucana_sb_send(out_lo, 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD);
    // CHECK-NEXT:       if (rank < size - 1) {
    // CHECK-NEXT:         tucana_sb_send(out_hi, 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD);
    // CHECK-NEXT:       }
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 1); break; }
#pragma bamboo send
    {
      if (rank > 0)
        MPI_Send(out_lo, 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD);
      if (rank < size - 1) {
        MPI_Send(out_hi, 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD);
      }
    }
    // CHECK: case 2: { /* region compute */ u[0] = 0.5 * (*lo + u[1]);
    u[0] = 0.5 * (*lo + u[1]);
    u[n - 1] = 0.5 * (u[n - 2] + *hi);
    *out_lo = u[0], *out_hi = u[n - 1];
  }
}
