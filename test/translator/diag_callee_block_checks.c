// The MPI calls of a block in a called function (a receive, send or compute
// block outside any superblock) are checked against its role like those of
// a region: no sends in a Tucana receive block, no receives in a send block,
// no collectives in either, nothing forbidden in any region. A Bamboo
// receive block may send (it may forward what it received).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void receive_part(double *a, int peer, MPI_Request *req) {
#pragma tucana receive
  {
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: MPI_Isend sends, but region 'receive' is a receive region; move it to the send region
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
  }
}

void send_part(double *a, int peer, MPI_Request *req) {
#pragma bamboo send
  {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: MPI_Irecv receives, but region 'send' is a send region; move it to the receive region
    MPI_Irecv(&a[2], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[2]);
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: MPI_Bcast is a collective; the send region 'send' may only post messages; move it to the compute region or out of the superblock
    MPI_Bcast(a, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
}

void compute_part(void) {
#pragma tucana compute
  {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: MPI_Finalize cannot run inside a region: the superblock's requests are still being completed by the runtime
    MPI_Finalize();
  }
}

// No error: a Bamboo receive block that forwards.
void forward(double *a, int peer, MPI_Request *req) {
#pragma bamboo receive
  {
    MPI_Irecv(&a[3], 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &req[3]);
    MPI_Isend(&a[4], 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &req[4]);
  }
}
