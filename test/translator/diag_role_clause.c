// role(receive|send|compute|any) on a named region says which MPI calls it
// may make, whatever its name: a receive region may not send or call a
// collective, a send region may not receive or call a collective; compute
// and any allow both (see role_clause.c for the translation). Without the
// clause the name decides (recv..., receive...: receive; send...: send).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int peer, int steps) {
  MPI_Request req[4];
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
#pragma tucana region(halo) role(receive)
    {
      MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      // CHECK-DAG: [[FILE]]:[[@LINE+1]]:7: error: MPI_Isend sends, but region 'halo' is a receive region; move it to the send region
      MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    }
#pragma tucana region(recv_ack) role(send) depends(halo)
    {
      MPI_Isend(&a[2], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[2]);
      // CHECK-DAG: [[FILE]]:[[@LINE+1]]:7: error: MPI_Irecv receives, but region 'recv_ack' is a send region; move it to the receive region
      MPI_Irecv(&a[3], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &req[3]);
    }
#pragma tucana region(pack) role(receive) depends(recv_ack)
    {
      // CHECK-DAG: [[FILE]]:[[@LINE+1]]:7: error: MPI_Barrier is a collective; the receive region 'pack' may only post messages; move it to the compute region or out of the superblock
      MPI_Barrier(MPI_COMM_WORLD);
    }
    // No error: role(compute) and role(any) allow any call a region may make.
#pragma tucana region(send_total) role(compute) depends(pack)
    MPI_Allreduce(MPI_IN_PLACE, &a[4], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma tucana region(receive_both) role(any) depends(send_total)
    {
      MPI_Sendrecv(&a[5], 1, MPI_DOUBLE, peer, 2, &a[6], 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    }
  }
}
