// Blocks in called functions, in another translation unit (Bamboo's
// inter-procedural case, without inlining): the superblock's regions call
// post_ring() and send_ring() of Inputs/callee_blocks_helper.c, whose
// receive and send blocks post the requests; at run time the requests belong
// to the region that called them, so the region `use` (which depends on both)
// only runs when they are complete, and the wait in finish_ring(), another
// called function, returns at once. A recursive call inside a region runs
// the same superblock one level deeper. The result equals the plain program's.
//
// RUN: %tucana-translate %S/Inputs/callee_blocks_helper.c -o %t.helper.c -- 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=HELPER --input-file=%t.helper.c --match-full-lines
// RUN: %tucanacc -Wall -Wextra -Werror %s %S/Inputs/callee_blocks_helper.c -o %t.exe
// RUN: %tucana-run -np 1 --vf 3 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT4 --match-full-lines
//
// HELPER: /* tucana: receive block: its requests belong to the running region (translated by tucana-translate) */
// HELPER: /* tucana: send block: its requests belong to the running region (translated by tucana-translate) */
//
// OUT: total 1678.382812
// OUT4: total 2797.304688

#include <mpi.h>
#include <stdio.h>

void post_ring(double *got, int left, int tag, MPI_Request *r);
void send_ring(const double *mine, int right, int tag, MPI_Request *r);
void finish_ring(MPI_Request *r);

// Each level passes its value around the ring `rounds` times and adds the
// level below: the same sums as the plain program.
static double level(int depth, double seed, int left, int right) {
  double mine = seed, got = 0.0, acc = 0.0;
  MPI_Request req[2];
#pragma tucana superblock
  for (int round = 0; round < 3; round++) {
#pragma tucana region(post) role(receive)
    post_ring(&got, left, 10 + depth, &req[0]);
#pragma tucana region(send) role(send) depends(send*, use*)
    send_ring(&mine, right, 10 + depth, &req[1]);
#pragma tucana region(use) depends(post, send)
    {
      finish_ring(req);
      acc += got;
      mine = 0.5 * mine + got;
      if (depth > 0) acc += level(depth - 1, mine, left, right);
    }
  }
  return acc;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double acc = level(2, rank + 1.0, (rank + size - 1) % size, (rank + 1) % size), total;
  MPI_Reduce(&acc, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("total %.6f\n", total);
  MPI_Finalize();
  return 0;
}
