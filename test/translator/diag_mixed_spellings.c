// Inside a Bamboo olap region the parts are '#pragma bamboo receive' and
// '#pragma bamboo send' blocks; the rest is its compute part. A Tucana,
// Toucan or MATE region pragma there is an error (one per pragma).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
#pragma bamboo olap
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana' region inside a Bamboo olap region; use '#pragma bamboo receive' and '#pragma bamboo send' (the rest of the olap region is its compute part)
#pragma tucana receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma bamboo send
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma mate' region inside a Bamboo olap region; use '#pragma bamboo receive' and '#pragma bamboo send' (the rest of the olap region is its compute part)
#pragma mate region(x)
    a[2] = 1;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma toucan' region inside a Bamboo olap region; use '#pragma bamboo receive' and '#pragma bamboo send' (the rest of the olap region is its compute part)
#pragma toucan compute
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
}
