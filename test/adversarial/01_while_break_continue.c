/* superblock on a while loop; regions contain inner loops with break and continue */
#include <mpi.h>
#include <stdio.h>
#define N 16
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long a[N], in[N], out[N];
  for (int i = 0; i < N; i++) a[i] = rank * 100 + i;
  MPI_Request rq[2];
  int it = 0;
  long acc = 0;
#pragma tucana superblock
  while (it < 7) {
#pragma tucana receive
    { MPI_Irecv(in, N, MPI_LONG, left, 7, MPI_COMM_WORLD, &rq[0]); }
#pragma tucana send
    {
      for (int i = 0; i < N; i++) {
        if (i % 3 == 0) { out[i] = -1; continue; }
        out[i] = a[i] * 2 + it;
      }
      MPI_Isend(out, N, MPI_LONG, right, 7, MPI_COMM_WORLD, &rq[1]);
    }
#pragma tucana compute
    {
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      for (int i = 0; i < N; i++) {
        if (in[i] < 0) continue;
        if (in[i] > 100000) break;
        a[i] = (a[i] + in[i]) % 9973;
      }
      int j = 0;
      while (1) { if (j >= N) break; acc += a[j++]; }
      it++;
    }
  }
  long tot;
  MPI_Reduce(&acc, &tot, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  printf("rank %d acc %ld it %d\n", rank, acc, it);
  if (rank == 0) printf("total %ld\n", tot);
  MPI_Finalize();
  return 0;
}
