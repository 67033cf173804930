// Each part of a Bamboo olap region (receive block, send block, compute
// part) becomes a region of its own, in its own { } scope: a variable
// declared in one part and used in a later part would be out of scope
// there. The error stands at the declaration and names both parts.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
#pragma bamboo olap
  for (int i = 0; i < n; i++) {
#pragma bamboo receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:12: error: 'x' is declared in part 'compute1' of the olap region and used in part 'send', where it is out of scope in the translated program; declare it before the olap region
    double x = a[0];
#pragma bamboo send
    MPI_Isend(&x, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    a[1] = 2;
  }
  // A declaration used only in its own part is fine.
#pragma bamboo olap
  for (int i = 0; i < n; i++) {
#pragma bamboo receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
    double y = a[0];
    a[2] = y;
  }
}
