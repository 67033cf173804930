/* while loop ended by a residual computed with MPI_Allreduce inside the compute region */
#include <mpi.h>
#include <stdio.h>
#define N 8
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  long u[N + 2], nu[N + 2];
  for (int i = 0; i < N + 2; i++) u[i] = (rank == 0 && i == 1) ? 1L << 20 : 0;
  long maxdiff = 1;
  int iters = 0;
  MPI_Request r[4];
#pragma tucana superblock
  while (maxdiff > 2 && iters < 200) {
#pragma tucana receive
    { MPI_Irecv(&u[0], 1, MPI_LONG, left, 0, MPI_COMM_WORLD, &r[0]); MPI_Irecv(&u[N + 1], 1, MPI_LONG, right, 1, MPI_COMM_WORLD, &r[1]); }
#pragma tucana send
    { MPI_Isend(&u[1], 1, MPI_LONG, left, 1, MPI_COMM_WORLD, &r[2]); MPI_Isend(&u[N], 1, MPI_LONG, right, 0, MPI_COMM_WORLD, &r[3]); }
#pragma tucana compute
    {
      MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
      long local = 0;
      for (int i = 1; i <= N; i++) {
        nu[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4;
        long d = nu[i] > u[i] ? nu[i] - u[i] : u[i] - nu[i];
        if (d > local) local = d;
      }
      for (int i = 1; i <= N; i++) u[i] = nu[i];
      MPI_Allreduce(&local, &maxdiff, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
      iters++;
    }
  }
  long s = 0;
  for (int i = 1; i <= N; i++) s += u[i];
  printf("rank %d iters %d maxdiff %ld s %ld\n", rank, iters, maxdiff, s);
  MPI_Finalize();
  return 0;
}
