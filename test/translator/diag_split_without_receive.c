// split(...) asks to overlap a region's work with its iteration's receives:
// on a region that depends on no receive region of its iteration it is an
// error (there is nothing to overlap).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out
#include <mpi.h>

void f(double *a, double *r, MPI_Request *req) {
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    { MPI_Wait(&req[0], MPI_STATUS_IGNORE); a[0] = r[0]; }
    // CHECK: [[FILE]]:[[@LINE+1]]:49: error: split(...) on region 'other', which depends on no receive region of its iteration: there is nothing to overlap
#pragma tucana region(other) depends(comp) split(2)
    { a[1] = 0; }
  }
}
