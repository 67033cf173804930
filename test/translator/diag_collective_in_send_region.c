// Receive and send regions only post messages; a collective (it blocks until
// every rank calls it) is an error there. It is allowed in the compute
// region and in named regions that are neither.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
  double sum = 0.0;
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    {
      MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Barrier is a collective; the receive region 'receive' may only post messages; move it to the compute region or out of the superblock
      MPI_Barrier(MPI_COMM_WORLD);
    }
#pragma tucana send
    {
      MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Allreduce is a collective; the send region 'send' may only post messages; move it to the compute region or out of the superblock
      MPI_Allreduce(&a[1], &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      MPI_Allreduce(&a[0], &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(send_norm)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: MPI_Bcast is a collective; the send region 'send_norm' may only post messages; move it to the compute region or out of the superblock
    MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
#pragma tucana region(norm) depends(send_norm)
    MPI_Reduce(&a[0], &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
}
