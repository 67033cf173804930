// Waits inside a superblock stay MPI calls, exactly as written: MPI_Wait and
// MPI_Waitall in a region are not rewritten (the runtime checks that the
// region's dependencies cover the requests they complete), and neither are
// MPI_Waitany, MPI_Waitsome, MPI_Test*, or waits outside superblocks.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines --implicit-check-not='{{tucana_sb_wait[a-z]*[(]}}'
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

#define WAIT_BOTH(r) MPI_Waitall(2, (r), MPI_STATUSES_IGNORE)

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
  int index, flag, errors = 0;
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    {
      MPI_Irecv(&buf[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(&buf[1], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[1]);
    }
#pragma tucana send
    MPI_Isend(&buf[2], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[2]);
    // CHECK: case 2: { /* region compute */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       errors += MPI_Wait(&req[2], &st[2]) != MPI_SUCCESS;
    // CHECK-NEXT:       MPI_Waitall(2, req, st);
    // CHECK-NEXT:       WAIT_BOTH(req);
    // CHECK-NEXT:       MPI_Waitany(3, req, &index, MPI_STATUS_IGNORE);
    // CHECK-NEXT:       MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    // CHECK-NEXT:       buf[2] = buf[0] + buf[1];
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 2); break; }
#pragma tucana compute
    {
      errors += MPI_Wait(&req[2], &st[2]) != MPI_SUCCESS;
      MPI_Waitall(2, req, st);
      WAIT_BOTH(req);
      MPI_Waitany(3, req, &index, MPI_STATUS_IGNORE);
      MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
      buf[2] = buf[0] + buf[1];
    }
  }
  return errors;
}
