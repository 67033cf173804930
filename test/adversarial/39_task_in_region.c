/* tasks spawned in a compute region (they belong to it); the next iteration's send reads what the tasks wrote */
#include <mpi.h>
#include <stdio.h>
#define N 8
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long u[N], in[N], out[N];
  long *pu = u, *pin = in;
  for (int i = 0; i < N; i++) u[i] = rank * N + i;
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    MPI_Irecv(in, N, MPI_LONG, l, 1, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { for (int i = 0; i < N; i++) out[i] = u[i]; MPI_Isend(out, N, MPI_LONG, r, 1, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      for (int h = 0; h < 2; h++) {
#pragma tucana task
        { for (int i = h * N / 2; i < (h + 1) * N / 2; i++) pu[i] = (pu[i] * 3 + pin[(i + 1) % N] + it) % 10009; }
      }
    }
  }
  long s = 0;
  for (int i = 0; i < N; i++) s += u[i] * (i + 1);
  printf("rank %d s %ld\n", rank, s);
  MPI_Finalize();
  return 0;
}
