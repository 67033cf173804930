// The Bamboo spelling (#pragma bamboo olap / receive / send) is not
// supported: instead of being ignored like an unknown pragma (the loop would
// silently run without overlap), each such pragma is an error that says how
// to write it in Tucana's spelling.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
  // CHECK: [[FILE]]:[[@LINE+1]]:9: error: the Bamboo spelling is not supported; write '#pragma tucana superblock' for 'olap', '#pragma tucana receive' and '#pragma tucana send' for its parts, and '#pragma tucana compute' before a block with the rest of the loop body
#pragma bamboo olap
  for (int i = 0; i < n; i++) {
    // CHECK: [[FILE]]:[[@LINE+1]]:9: error: the Bamboo spelling is not supported; {{.*}}
#pragma bamboo receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK: [[FILE]]:[[@LINE+1]]:9: error: the Bamboo spelling is not supported; {{.*}}
#pragma bamboo send
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    a[2] = a[0] + a[1];
  }
}
