// A wait called directly in a region is rewritten even when its arguments
// use macros (a request count from a #define, MPI_STATUSES_IGNORE): only
// the call's name and '(' are replaced, the arguments stay as written.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

#define NREQ 2
#define FIRST (&req[0])

void f(double *a, int n, int peer) {
  MPI_Request req[NREQ];
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK:     case 2: { /* region compute */
    // CHECK: #line {{[0-9]+}} "{{.*}}"
    // CHECK-NEXT:     {
    // CHECK-NEXT:       tucana_sb_wait(tucana_sb0, FIRST, MPI_STATUS_IGNORE);
    // CHECK-NEXT:       tucana_sb_waitall(tucana_sb0, NREQ, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:     }
#pragma tucana compute
    {
      MPI_Wait(FIRST, MPI_STATUS_IGNORE);
      MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE);
    }
  }
}
