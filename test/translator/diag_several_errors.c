// All the annotation errors of a file are reported in one run, whatever
// their kind: a malformed pragma, a misplaced one, a graph error, an MPI
// call in the wrong region, control flow out of a region, in different
// superblocks and functions. Nothing is written.
//
// (Within one superblock, a region-structure or graph error stops its
// analysis, so the MPI and control-flow checks of that superblock's regions
// are not made in that run: each error here is in a superblock of its own.)
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void first(double *a, int n, int peer) {
  MPI_Request req[2];
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:24: error: unknown clause 'fast' in '#pragma tucana receive'; expected priority(...)
#pragma tucana receive fast
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana compute
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
}

int second(double *a, int n, int peer) {
  MPI_Request req;
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+2]]:5: error: MPI_Irecv receives, but region 'send_it' is a send region; move it to the receive region
#pragma tucana region(send_it)
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req);
#pragma tucana region(check) depends(send_it)
    {
      if (a[i] < 0)
        // CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: error: 'return' cannot leave a superblock's regions (each region runs on its own, once per iteration)
        return -1;
    }
  }
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:34: error: depends names unknown region 'nowhere'
#pragma tucana region(b) depends(nowhere)
    a[1] = 1;
  }
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(c)
    a[2] = 1;
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: statement is not inside any region of the superblock; every statement of a superblock belongs to exactly one region
    a[i] = 0;
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: '#pragma tucana superblock' must be followed by a loop ('for', 'while', 'do' or range 'for') or a { } block
#pragma tucana superblock
  a[0] = 1;
  return 0;
}

void third(double *a) {
  a[0] = 0;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana compute' must be followed by a statement in a function body
#pragma tucana compute
}
// CHECK: 7 errors generated.
