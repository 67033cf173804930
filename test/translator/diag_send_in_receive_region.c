// A receive region only posts receives: a call that only sends (MPI_Send,
// MPI_Isend, ...) is an error there; MPI_Sendrecv, an exchange that
// receives, is not (blocking_calls_reinterpreted.c). Named regions whose
// name starts with 'receive' or 'recv' count as receive regions.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    {
      MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Isend sends, but region 'receive' is a receive region; move it to the send region
      MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      MPI_Sendrecv(&a[2], 1, MPI_DOUBLE, peer, 1, &a[3], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
#pragma tucana send
    MPI_Send(&a[4], 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
#pragma tucana compute
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(recv_left)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: MPI_Send sends, but region 'recv_left' is a receive region; move it to the send region
    MPI_Send(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
#pragma tucana region(other) depends(recv_left)
    MPI_Send(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
  }
}
