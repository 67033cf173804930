// role(receive|send|compute|any) on a named region: the role decides the MPI
// checks (diag_role_clause.c) and whether blocking calls are posted (only in
// receive and send regions). Without the clause the name decides: recv... and
// receive... receive, send... sends, anything else is 'any'. The table
// entry is TUCANA_REGION_OTHER whatever the role.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void f(double *a, int peer, int steps) {
  MPI_Status st[4];
  // CHECK: { /* tucana: superblock role_clause.c:{{[0-9]+}}, regions halo recv_plain send_edge recv_any send_compute (translated by tucana-translate) */
  // CHECK: {"halo", TUCANA_REGION_OTHER, 0, (const tucana_dependency *)0},
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // role(receive): posted.
    // CHECK: tucana_sb_recv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st[0]); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana region(halo) role(receive)
    MPI_Recv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st[0]);
    // A receive region by its name: posted.
    // CHECK: tucana_sb_recv(&a[1], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st[1]); tucana_sb_ran(tucana_sb0, 1); break; }
#pragma tucana region(recv_plain) depends(halo)
    MPI_Recv(&a[1], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st[1]);
    // A send region by its name: posted.
    // CHECK: tucana_sb_send(&a[2], 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD); tucana_sb_ran(tucana_sb0, 2); break; }
#pragma tucana region(send_edge) depends(recv_plain)
    MPI_Send(&a[2], 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
    // role(any) overrides the name: stays blocking.
    // CHECK: MPI_Recv(&a[3], 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &st[3]); tucana_sb_ran(tucana_sb0, 3); break; }
#pragma tucana region(recv_any) role(any) depends(send_edge)
    MPI_Recv(&a[3], 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &st[3]);
    // role(compute): stays blocking.
    // CHECK: MPI_Send(&a[4], 1, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD); tucana_sb_ran(tucana_sb0, 4); break; }
#pragma tucana region(send_compute) role(compute) depends(recv_any)
    MPI_Send(&a[4], 1, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD);
  }
}
