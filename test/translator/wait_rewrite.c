// Waits inside a superblock: MPI_Wait(r, s) becomes
// tucana_sb_wait(tucana_sbK, r, s) and MPI_Waitall(n, r, s) becomes
// tucana_sb_waitall(tucana_sbK, n, r, s), K being the superblock's number;
// only the name and the opening parenthesis change, the arguments stay as
// written. Waits outside superblocks, and the wait calls without a
// tucana_sb_ counterpart (MPI_Waitany, MPI_Waitsome, MPI_Test*), are left
// as they are.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

// CHECK: void before(MPI_Request *r) {
// CHECK-NEXT:   MPI_Wait(r, MPI_STATUS_IGNORE);
// CHECK-NEXT:   MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
// CHECK-NEXT: }
void before(MPI_Request *r) {
  MPI_Wait(r, MPI_STATUS_IGNORE);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
}

int waits(double *buf, int peer, int n) {
  MPI_Request req[3];
  MPI_Status st[3];
  int index, errors = 0;
  // CHECK: /* tucana: superblock wait_rewrite.c:{{[0-9]+}}, regions receive send compute (translated by tucana-translate) */
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // A wait in a receive region, as an expression and across lines.
    // CHECK:     case 0: { /* region receive */
    // CHECK: #line {{[0-9]+}} "{{.*}}wait_rewrite.c"
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Irecv(&buf[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK-NEXT:       if (tucana_sb_wait(tucana_sb0, &req[0], &st[0]) != MPI_SUCCESS)
    // CHECK-NEXT:         errors++;
    // CHECK-NEXT:       MPI_Irecv(&buf[1], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[0]);
    // CHECK-NEXT:       tucana_sb_wait(tucana_sb0, &req[0],
    // CHECK-NEXT:                MPI_STATUS_IGNORE);
    // CHECK-NEXT:     }
#pragma tucana receive
    {
      MPI_Irecv(&buf[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      if (MPI_Wait(&req[0], &st[0]) != MPI_SUCCESS)
        errors++;
      MPI_Irecv(&buf[1], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[0]);
      MPI_Wait(&req[0],
               MPI_STATUS_IGNORE);
    }
    // CHECK:     case 1: { /* region send */
    // CHECK: #line {{[0-9]+}} "{{.*}}wait_rewrite.c"
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Isend(&buf[2], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK-NEXT:       MPI_Isend(&buf[3], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[2]);
    // CHECK-NEXT:       tucana_sb_waitall(tucana_sb0, 2, &req[1], MPI_STATUSES_IGNORE);
    // CHECK-NEXT:     }
#pragma tucana send
    {
      MPI_Isend(&buf[2], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      MPI_Isend(&buf[3], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[2]);
      MPI_Waitall(2, &req[1], MPI_STATUSES_IGNORE);
    }
    // Waitany, Waitsome and Test stay MPI calls.
    // CHECK:     case 2: { /* region compute */
    // CHECK: #line {{[0-9]+}} "{{.*}}wait_rewrite.c"
    // CHECK-NEXT:     {
    // CHECK-NEXT:       int flag, count, done[3];
    // CHECK-NEXT:       tucana_sb_waitall(tucana_sb0, 3, req, st);
    // CHECK-NEXT:       MPI_Waitany(3, req, &index, MPI_STATUS_IGNORE);
    // CHECK-NEXT:       MPI_Waitsome(3, req, &count, done, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:       MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    // CHECK-NEXT:       tucana_sb_wait(tucana_sb0, &req[2], &st[2]);
    // CHECK-NEXT:       buf[4] += buf[0] + buf[1];
    // CHECK-NEXT:     }
#pragma tucana compute
    {
      int flag, count, done[3];
      MPI_Waitall(3, req, st);
      MPI_Waitany(3, req, &index, MPI_STATUS_IGNORE);
      MPI_Waitsome(3, req, &count, done, MPI_STATUSES_IGNORE);
      MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
      MPI_Wait(&req[2], &st[2]);
      buf[4] += buf[0] + buf[1];
    }
  }
  // The waits after the superblock are not rewritten.
  // CHECK: MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  // CHECK-NEXT: MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  return errors;
}

// A second superblock: its waits name its own handle, tucana_sb1.
void second(double *buf, int peer, int n) {
  MPI_Request r;
  // CHECK: /* tucana: superblock wait_rewrite.c:{{[0-9]+}}, regions recv use (translated by tucana-translate) */
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(recv)
    MPI_Irecv(buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &r);
    // CHECK:     case 1: { /* region use */
    // CHECK: #line {{[0-9]+}} "{{.*}}wait_rewrite.c"
    // CHECK-NEXT:     tucana_sb_wait(tucana_sb1, &r, MPI_STATUS_IGNORE);
#pragma tucana region(use) depends(recv)
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
}
