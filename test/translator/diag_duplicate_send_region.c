// A region name appears once per superblock: a second send region of the
// receive/send/compute form is an error at its keyword, with a note at the
// first one. The same holds for named regions.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int left, int right) {
  MPI_Request req[3];
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&a[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK: [[FILE]]:[[@LINE+1]]:16: error: duplicate 'send' region in this superblock
#pragma tucana send
    MPI_Isend(&a[2], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[2]);
    // CHECK: [[FILE]]:[[@LINE-5]]:16: note: previous 'send' region is here
#pragma tucana compute
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  }
}

void g(double *a, int n) {
  for (int i = 0; i < n; i++) {
#pragma mate region(pack) depends(unpack*)
    a[0] = i;
    // CHECK: [[FILE]]:[[@LINE+1]]:14: error: duplicate 'pack' region in this superblock
#pragma mate region(pack)
    a[1] = i;
    // CHECK: [[FILE]]:[[@LINE-5]]:14: note: previous 'pack' region is here
#pragma mate region(unpack) depends(pack)
    a[2] = a[0] + a[1];
  }
}
