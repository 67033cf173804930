/* _Pragma in macros: a superblock pragma, a task and a taskwait come from macro expansions */
#include <mpi.h>
#include <stdio.h>
#define OVERLAPPED _Pragma("tucana superblock")
#define SPAWN(stmt) _Pragma("tucana task") stmt
#define SYNC _Pragma("tucana taskwait")
#define RECV_REGION _Pragma("tucana receive")
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank * 3 + 1, in = 0, out = 0;
  MPI_Request q[2];
  OVERLAPPED
  for (int it = 0; it < 6; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = (v * 5 + in) % 7919; }
  }
  long cells[4] = {1, 2, 3, 4};
  long *pc = cells;
  for (int k = 0; k < 4; k++) {
    SPAWN({ pc[k] = pc[k] * v % 101; });
  }
  SYNC
  printf("rank %d v %ld cells %ld %ld %ld %ld\n", rank, v, cells[0], cells[1], cells[2], cells[3]);
  MPI_Finalize();
  return 0;
}
