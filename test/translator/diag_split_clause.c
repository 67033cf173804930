// The split clause of compute and named regions takes 'off' or a halo
// width, once; the Toucan spelling takes no clauses.
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
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:63: error: expected off or a halo width (0 to 9999) in split(...) in '#pragma tucana region'
#pragma tucana region(comp) depends(recv) role(compute) split(halo)
    { a[0] = r[0]; }
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:50: error: expected off or a halo width (0 to 9999) in split(...) in '#pragma tucana region'
#pragma tucana region(other) depends(comp) split(-1)
    { a[1] = 0; }
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:55: error: clause 'split' given twice
#pragma tucana region(more) depends(other) split(off) split(1)
    { a[2] = 0; }
  }
}

void g(double *a, double *r, MPI_Request *req) {
#pragma toucan superblock
  for (int it = 0; it < 2; it++) {
#pragma toucan receive
    { MPI_Irecv(r, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma toucan send
    { }
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'split' in '#pragma toucan compute'; this pragma takes no clauses
#pragma toucan compute split(off)
    { a[0] = r[0]; }
  }
}
