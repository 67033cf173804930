// A _Pragma annotation from a macro that expands to more than the _Pragma
// cannot be replaced without erasing the rest of the expansion: an error
// that says how to write it.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning:
// RUN: not test -e %t.out

#include <mpi.h>

#define RECEIVE_ONE(buf, from) _Pragma("tucana receive") MPI_Recv((buf), 1, MPI_DOUBLE, (from), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)

void f(double *u, int peer, int steps) {
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: '_Pragma("tucana receive")' comes from a macro that expands to more than the _Pragma; the translator replaces the annotation's text, so define the macro as the _Pragma alone and write the rest after it
    RECEIVE_ONE(&u[0], peer);
#pragma tucana send
    MPI_Send(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
#pragma tucana compute
    u[2] += u[0];
  }
}
