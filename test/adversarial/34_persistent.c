/* persistent requests: MPI_Send_init/MPI_Recv_init before the loop, MPI_Startall in regions */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  int in[2], out[2], v[2] = {rank, rank * rank};
  MPI_Request rq[2];
  MPI_Recv_init(in, 2, MPI_INT, l, 3, MPI_COMM_WORLD, &rq[0]);
  MPI_Send_init(out, 2, MPI_INT, r, 3, MPI_COMM_WORLD, &rq[1]);
#pragma tucana superblock
  for (int it = 0; it < 9; it++) {
#pragma tucana receive
    MPI_Start(&rq[0]);
#pragma tucana send
    { out[0] = v[0] + it; out[1] = v[1]; MPI_Start(&rq[1]); }
#pragma tucana compute
    { MPI_Waitall(2, rq, MPI_STATUSES_IGNORE); v[0] = (v[0] + in[1]) % 1013; v[1] = (v[1] * 2 + in[0]) % 1013; }
  }
  MPI_Request_free(&rq[0]); MPI_Request_free(&rq[1]);
  printf("rank %d v %d %d\n", rank, v[0], v[1]);
  MPI_Finalize();
  return 0;
}
