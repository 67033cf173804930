// Blocking MPI_Recv, MPI_Send and MPI_Sendrecv in receive and send blocks
// (and regions) are posted instead: only the callee's name changes, to
// tucana_sb_recv, tucana_sb_send or tucana_sb_sendrecv (the runtime posts
// the non-blocking call, attributed to the running region). That happens
// only when the buffers (and the status) outlive the region and nothing
// later in the region names them; otherwise the call stays blocking.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

#define RECV_ONE(buf, from) MPI_Recv((buf), 1, MPI_DOUBLE, (from), 0, MPI_COMM_WORLD, &st)

double ghost[4];

void f(double *u, int n, int peer, int steps) {
  MPI_Status st, st2, st3;
  double keep = 0.0;
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
    // Buffer and status outlive the block: posted.
    // CHECK: tucana_sb_recv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma bamboo receive
    MPI_Recv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st);
    // A global buffer, and a pointer held in a variable of the block (it
    // points to memory that outlives the block): posted.
    // CHECK: tucana_sb_recv(TUCANA_PRIV(ghost), 4, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st2);
    // CHECK: tucana_sb_recv(p, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &st3);
#pragma bamboo receive
    {
      MPI_Recv(ghost, 4, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st2);
      double *p = &u[n + 1];
      MPI_Recv(p, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &st3);
    }
    // A receive block may forward data (Bamboo): MPI_Sendrecv is posted too.
    // CHECK: tucana_sb_sendrecv(&u[1], 1, MPI_DOUBLE, peer, 3, &u[2], 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb0, 2); break; }
#pragma bamboo receive
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, peer, 3, &u[2], 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &st);
    // CHECK: tucana_sb_send(&u[n], 1, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD); tucana_sb_ran(tucana_sb0, 3); break; }
#pragma bamboo send
    MPI_Send(&u[n], 1, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD);

    // Not posted: the buffer is declared in the block (it ends with it).
    // CHECK: MPI_Recv(&local, 1, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &st);
#pragma bamboo receive
    {
      double local;
      MPI_Recv(&local, 1, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &st);
      keep += local;
    }
    // Not posted: the status is declared in the block.
    // CHECK: MPI_Recv(&u[3], 1, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, &mine);
#pragma bamboo receive
    {
      MPI_Status mine;
      MPI_Recv(&u[3], 1, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD, &mine);
    }
    // Not posted: the block uses the buffer after the call.
    // CHECK: MPI_Recv(&keep, 1, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &st);
    // CHECK-NEXT: u[4] = keep;
#pragma bamboo receive
    {
      MPI_Recv(&keep, 1, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &st);
      u[4] = keep;
    }
    // Not posted: a loop in the block names the buffer before the call, in
    // the next trip.
    // CHECK: MPI_Send(&keep, 1, MPI_DOUBLE, peer, 8 + k, MPI_COMM_WORLD);
#pragma bamboo send
    {
      for (int k = 0; k < 2; k++) {
        keep += k;
        MPI_Send(&keep, 1, MPI_DOUBLE, peer, 8 + k, MPI_COMM_WORLD);
      }
    }
    // Not posted: the call comes from a macro.
    // CHECK: RECV_ONE(&u[5], peer); tucana_sb_ran(tucana_sb0, 8); break; }
#pragma bamboo receive
    RECV_ONE(&u[5], peer);
    // Not posted: a send in a receive block, a receive in a compute part.
    // CHECK: MPI_Send(&u[6], 1, MPI_DOUBLE, peer, 10, MPI_COMM_WORLD); tucana_sb_ran(tucana_sb0, 9); break; }
#pragma bamboo receive
    MPI_Send(&u[6], 1, MPI_DOUBLE, peer, 10, MPI_COMM_WORLD);
    // CHECK: case 10: { /* region compute */ MPI_Recv(&u[7], 1, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &st);
    MPI_Recv(&u[7], 1, MPI_DOUBLE, peer, 11, MPI_COMM_WORLD, &st);
    u[8] = keep;
  }
}

// The Tucana spelling: receive and send regions, and named regions whose
// role is receive or send, are posted in the same way.
void g(double *u, int peer, int steps) {
  MPI_Status st;
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: tucana_sb_recv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb1, 0); break; }
#pragma tucana receive
    MPI_Recv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st);
    // CHECK: tucana_sb_send(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD); tucana_sb_ran(tucana_sb1, 1); break; }
#pragma tucana send
    MPI_Send(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    // CHECK: MPI_Recv(&u[2], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb1, 2); break; }
#pragma tucana compute
    MPI_Recv(&u[2], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st);
  }
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: tucana_sb_recv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb2, 0); break; }
#pragma tucana region(halo) role(receive)
    MPI_Recv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &st);
    // CHECK: tucana_sb_send(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD); tucana_sb_ran(tucana_sb2, 1); break; }
#pragma tucana region(send_edge) depends(halo)
    MPI_Send(&u[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    // CHECK: MPI_Recv(&u[2], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb2, 2); break; }
#pragma tucana region(other) depends(send_edge)
    MPI_Recv(&u[2], 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &st);
  }
  // MPI_Sendrecv in a receive region (Toucan form, and a named receive
  // region): an exchange receives, so it is posted like MPI_Recv.
#pragma toucan superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: tucana_sb_sendrecv(&u[1], 1, MPI_DOUBLE, peer, 5, &u[0], 1, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb3, 0); break; }
#pragma toucan receive
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, peer, 5, &u[0], 1, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD, &st);
#pragma toucan send
    MPI_Send(&u[2], 1, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD);
#pragma toucan compute
    u[3] += u[0];
  }
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // CHECK: tucana_sb_sendrecv(&u[1], 1, MPI_DOUBLE, peer, 7, &u[0], 1, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &st); tucana_sb_ran(tucana_sb4, 0); break; }
#pragma tucana region(recv_halo)
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, peer, 7, &u[0], 1, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &st);
#pragma tucana region(work) depends(recv_halo)
    u[3] += u[0];
  }
}
