/* heat1d_bamboo: a 1D heat equation in the Bamboo spelling (#pragma bamboo),
 * written the way the Bamboo paper's examples are: blocking MPI calls in
 * receive and send blocks, conditional receives at the ends of the domain,
 * the send block matching receives of the same iteration (the paper's
 * Table 1 case), and a running sum forwarded along the ranks by a send in a
 * later receive block. The output is the same under plain MPI and
 * translated under Tucana (test: examples.*).
 *
 *   heat1d_bamboo [N [ITERATIONS]]        (defaults 240 cells, 40 steps) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 240, iters = argc > 2 ? atoi(argv[2]) : 40;
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  int first = rank * n / size, nloc = (rank + 1) * n / size - first;
  double *u = calloc((size_t)nloc + 2, sizeof *u), *v = calloc((size_t)nloc + 2, sizeof *v);
  for (int c = 1; c <= nloc; c++) u[c] = (first + c - 1) % 7 == 0 ? 1.0 : 0.0;
  double ghost_l = 0.0, ghost_r = 0.0, edge_l = 0.0, edge_r = 0.0, flux = 0.0, carried = 0.0;
  double pair[2], pair_in[2] = {0.0, 0.0};
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status st;
  int it;
  for (it = 0; it < iters; it++) {
    {
      if (left != MPI_PROC_NULL) MPI_Irecv(&ghost_l, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
      if (right != MPI_PROC_NULL) MPI_Irecv(&ghost_r, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    }
    {
      edge_l = u[1];
      edge_r = u[nloc];
      if (left != MPI_PROC_NULL) MPI_Send(&edge_l, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD);
      if (right != MPI_PROC_NULL) MPI_Send(&edge_r, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
    }
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    u[0] = left != MPI_PROC_NULL ? ghost_l : 0.0;
    u[nloc + 1] = right != MPI_PROC_NULL ? ghost_r : 0.0;
    for (int c = 1; c <= nloc; c++) v[c] = u[c] + 0.25 * (u[c - 1] - 2.0 * u[c] + u[c + 1]);
    double *t = u;
    u = v;
    v = t;
    {
      /* The heat that left through the left boundary, summed from rank 0
       * to the last rank: a send that uses the data just received. */
      double in = 0.0;
      if (left != MPI_PROC_NULL) MPI_Recv(&in, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      flux = in + u[1];
      if (right != MPI_PROC_NULL) MPI_Send(&flux, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
    }
    {
      /* A pair exchanged with the right neighbour (Sendrecv posts both). */
      pair[0] = u[nloc];
      pair[1] = it;
      MPI_Sendrecv(pair, 2, MPI_DOUBLE, right, 3, pair_in, 2, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &st);
    }
    carried += pair_in[0] + pair_in[1] * 1e-3;
  }
  double local = 0.0, total, fsum, csum;
  for (int c = 1; c <= nloc; c++) local += u[c] * (first + c);
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&flux, &fsum, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&carried, &csum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("heat1d_bamboo: n %d iterations %d weighted sum %.12g flux %.12g carried %.12g\n", n, iters, total, fsum, csum);
    printf("heat1d_bamboo: OK\n");
  }
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
