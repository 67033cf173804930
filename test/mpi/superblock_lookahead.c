/* superblock_lookahead.c -- a superblock that tucana-translate runs in the
 * lookahead form (docs/translator.md): a canonical loop whose graph lets
 * the region `work` (local arithmetic only, depends(work*)) run ahead of
 * the ring exchange (recv, send, use), which the graph keeps in order
 * across iterations. The loop variable is declared before the loop: its
 * final value is part of the output. The checksum line must match the
 * program compiled by the system's mpicc and run under its mpirun
 * (COMPARE_NATIVE).
 */
#include <mpi.h>
#include <stdio.h>

#define ITERATIONS 24

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double in = 0.0, out = 0.0, acc = 0.0;
  long work = 0;
  MPI_Request req[2];
  int it;

#pragma tucana superblock
  for (it = 1; it <= ITERATIONS; it += 1) {
#pragma tucana region(recv) depends(use*)
    MPI_Irecv(&in, 1, MPI_DOUBLE, left, it, MPI_COMM_WORLD, &req[0]);
#pragma tucana region(send) depends(use*)
    {
      out = 1000.0 * rank + it;
      MPI_Isend(&out, 1, MPI_DOUBLE, right, it, MPI_COMM_WORLD, &req[1]);
    }
#pragma tucana region(work) depends(work*)
    {
      for (int k = 0; k < 20000; k++) {
        if (k % 5000 == 4999) continue;
        work = (work * 31 + it * k + rank) % 1000003;
      }
    }
#pragma tucana region(use) depends(recv, send)
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      acc = acc * 0.5 + in;
    }
  }

  double local[3] = {acc, (double)work, (double)it}, total[3];
  MPI_Reduce(local, total, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %.17g %.17g %.17g\n", total[0], total[1], total[2]);
  MPI_Finalize();
  return 0;
}
