// The receive/send/compute form needs exactly one region of each kind; the
// error names the missing one and points at the superblock.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req;
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: superblock has no 'receive' region; the receive/send/compute form needs exactly one of each
#pragma toucan superblock
  for (int i = 0; i < n; i++) {
#pragma toucan send
    MPI_Isend(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req);
#pragma toucan compute
    {
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      a[0] += 1.0;
    }
  }
}
