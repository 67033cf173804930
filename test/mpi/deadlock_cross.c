/* Deadlock detection across processes: no report while a process computes,
 * a report when every subrank of every process is blocked.
 * usage: deadlock_cross MODE SECONDS, MODE one of
 *   first_computes   rank 0 computes SECONDS, then sends to every rank;
 *                    the others wait in MPI_Recv meanwhile      -> OK
 *   last_computes    the same with the last rank computing      -> OK
 *   first_finishes   rank 0 ends at once (its process then waits to
 *                    finalize); the others compute SECONDS, then
 *                    meet in a barrier without it                -> OK
 *   recv_from_ended  rank 0 ends at once; the last rank waits for a
 *                    message from it (tag 42) that never comes  -> deadlock */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double busy(double seconds) {
  /* Computes, with no MPI call: the process is busy, not blocked. */
  double t0 = MPI_Wtime(), x = 0;
  while (MPI_Wtime() - t0 < seconds)
    for (int i = 0; i < 100000; i++) x += 1e-9 * i;
  return x;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "first_computes";
  double seconds = argc > 2 ? atof(argv[2]) : 3;
  int ok = 1;
  if (strcmp(mode, "first_computes") == 0 || strcmp(mode, "last_computes") == 0) {
    int root = strcmp(mode, "first_computes") == 0 ? 0 : size - 1;
    if (rank == root) {
      double x = busy(seconds);
      for (int r = 0; r < size; r++)
        if (r != root) MPI_Send(&x, 1, MPI_DOUBLE, r, 7, MPI_COMM_WORLD);
    } else {
      double x = 0;
      MPI_Recv(&x, 1, MPI_DOUBLE, root, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ok = x > 0;
    }
  } else if (strcmp(mode, "first_finishes") == 0) {
    MPI_Comm rest;
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0, rank, &rest);
    if (rank != 0) {
      busy(seconds);
      MPI_Barrier(rest);
    }
    MPI_Comm_free(&rest);
  } else if (strcmp(mode, "recv_from_ended") == 0) {
    if (rank == size - 1) {
      int x;
      MPI_Recv(&x, 1, MPI_INT, 0, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("FAIL deadlock_cross: the receive completed\n");
    }
  } else {
    fprintf(stderr, "deadlock_cross: unknown mode %s\n", mode);
    return 2;
  }
  int all = 0;
  if (strcmp(mode, "recv_from_ended") != 0) {
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0) printf(all ? "OK deadlock_cross\n" : "FAIL deadlock_cross: wrong data\n");
  }
  MPI_Finalize();
  return 0;
}
