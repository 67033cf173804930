// The reinterpretation of blocking calls, two more cases: MPI_STATUS_IGNORE
// (a cast null pointer in C) does not keep MPI_Recv blocking; a send region
// that is itself a loop changing its buffer on the next trip keeps MPI_Send
// blocking (the next trip is a later use of the buffer).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void f(double *u, double *ghost, int peer, int n) {
  double keep = 0.0;
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK: tucana_sb_recv(ghost, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana receive
    MPI_Recv(ghost, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // CHECK: for (int k = 0; k < 2; k++) { keep += k; MPI_Send(&keep, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD); } tucana_sb_ran(tucana_sb0, 1); break; }
#pragma tucana send
    for (int k = 0; k < 2; k++) { keep += k; MPI_Send(&keep, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD); }
#pragma tucana compute
    u[0] += *ghost;
  }
}
