// A wait inside a superblock is rewritten in the text; a wait that comes out
// of a macro expansion cannot be, and is an error at the macro's use.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

#define WAIT_BOTH(reqs) MPI_Waitall(2, (reqs), MPI_STATUSES_IGNORE)

void f(double *a, int n, int peer) {
  MPI_Request req[2];
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana compute
    {
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Waitall inside a macro expansion cannot be rewritten; call it directly in the region
      WAIT_BOTH(req);
      a[2] = a[0] + a[1];
    }
  }
}
