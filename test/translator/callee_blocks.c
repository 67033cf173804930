// Receive, send and compute blocks outside any superblock are blocks in
// called functions: a region calls the function, and at run time the
// requests the block posts belong to the region that is running. The
// pragma line becomes a comment (the line keeps its number); the block's
// code stays as it is, and its MPI calls are checked against its role
// (diag_callee_block_checks.c).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: not grep -n '^#pragma' %t.c
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

// The buffers are per subrank (privatized), as each rank's are in MPI.
// CHECK: static double inbox[2] TUCANA_PRIVATE, outbox[2] TUCANA_PRIVATE;
// CHECK-NEXT: static MPI_Request req[2] TUCANA_PRIVATE;
static double inbox[2], outbox[2];
static MPI_Request req[2];

// CHECK: static void post_receive(int peer) {
// CHECK-NEXT: /* tucana: receive block: its requests belong to the running region (translated by tucana-translate) */
// CHECK-NEXT:   MPI_Irecv(TUCANA_PRIV(inbox), 2, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &TUCANA_PRIV(req)[0]);
// CHECK-NEXT: }
static void post_receive(int peer) {
#pragma bamboo receive
  MPI_Irecv(inbox, 2, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
}

// CHECK: static void post_send(int peer) {
// CHECK-NEXT:   /* tucana: send block: its requests belong to the running region (translated by tucana-translate) */
// CHECK-NEXT:   {
// CHECK-NEXT:     TUCANA_PRIV(outbox)[0] = TUCANA_PRIV(inbox)[1];
// CHECK-NEXT:     MPI_Isend(TUCANA_PRIV(outbox), 2, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &TUCANA_PRIV(req)[1]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
static void post_send(int peer) {
  #pragma tucana send
  {
    outbox[0] = inbox[1];
    MPI_Isend(outbox, 2, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
  }
}

// CHECK: static void work(void) {
// CHECK-NEXT: /* tucana: compute block: its requests belong to the running region (translated by tucana-translate) */
static void work(void) {
#pragma toucan compute
  {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    outbox[1] = inbox[0];
  }
}

// CHECK: void loop(int peer, int steps) {
void loop(int peer, int steps) {
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: case 0: { /* region receive */
    // CHECK-NEXT:     post_receive(peer); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana receive
    post_receive(peer);
#pragma tucana send
    post_send(peer);
#pragma tucana compute
    work();
  }
}
