/* A 1D stencil on a ring of ranks with an annotated halo exchange: the loop
 * is a superblock (receive, send, compute regions), so tucanacc translates
 * it. Rank 0 prints a checksum that does not depend on the rank count's
 * layout (P processes x V subranks or plain ranks). */
#include <mpi.h>
#include <stdio.h>

#include "ring.h"

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double u[RING_CELLS + 2], v[RING_CELLS + 2];
  for (int i = 0; i < RING_CELLS + 2; i++) u[i] = v[i] = rank * RING_CELLS + i;
  MPI_Request req[4];
  double send[2], recv[2];

#pragma tucana superblock
  for (int step = 0; step < RING_STEPS; step++) {
#pragma tucana receive
    {
      MPI_Irecv(&recv[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(&recv[1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
    }
#pragma tucana send
    {
      send[0] = u[1];
      send[1] = u[RING_CELLS];
      MPI_Isend(&send[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(&send[1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[3]);
    }
#pragma tucana compute
    {
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      u[0] = recv[0];
      u[RING_CELLS + 1] = recv[1];
      for (int i = 1; i <= RING_CELLS; i++) v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
      for (int i = 1; i <= RING_CELLS; i++) u[i] = v[i];
    }
  }

  double local = ring_checksum(u + 1, RING_CELLS), total = 0;
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ring checksum %.12e on %d ranks\n", total, size);
  MPI_Finalize();
  return 0;
}
