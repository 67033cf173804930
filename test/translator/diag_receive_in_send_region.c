// A send region only posts sends: a call that receives (MPI_Recv,
// MPI_Irecv, MPI_Probe, ..., and MPI_Sendrecv) is an error there. Named
// regions whose name starts with 'send' count as send regions.
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
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    {
      MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Irecv receives, but region 'send' is a send region; move it to the receive region
      MPI_Irecv(&a[2], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[1]);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Probe receives, but region 'send' is a send region; move it to the receive region
      MPI_Probe(peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Sendrecv receives, but region 'send' is a send region; move it to the receive region
      MPI_Sendrecv(&a[2], 1, MPI_DOUBLE, peer, 1, &a[3], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
#pragma tucana compute
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
}

void g(double *a, int n, int peer) {
  for (int i = 0; i < n; i++) {
#pragma mate region(send_right)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: MPI_Recv receives, but region 'send_right' is a send region; move it to the receive region
    MPI_Recv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
