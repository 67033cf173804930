/* loop header from a macro, macros expanding to loops/statements inside regions */
#include <mpi.h>
#include <stdio.h>
#define N 10
#define FOR_I(i, n) for (int i = 0; i < (n); i++)
#define REPEAT(k) for (int rep__ = 0; rep__ < (k); rep__++)
#define SWAP(a, b) do { long t__ = (a); (a) = (b); (b) = t__; } while (0)
#define POST_RECV(buf, n, src, r) MPI_Irecv((buf), (n), MPI_LONG, (src), 3, MPI_COMM_WORLD, (r))
#define ACCUM(dst, src, n) FOR_I(q__, n) (dst)[q__] += (src)[q__]
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long v[N], in[N], out[N];
  FOR_I(i, N) v[i] = rank + i;
  MPI_Request r[2];
  int step = 0;
#pragma tucana superblock
  REPEAT(5) {
#pragma tucana receive
    POST_RECV(in, N, left, &r[0]);
#pragma tucana send
    {
      FOR_I(i, N) out[i] = v[i] * 3;
      MPI_Isend(out, N, MPI_LONG, right, 3, MPI_COMM_WORLD, &r[1]);
    }
#pragma tucana compute
    {
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      ACCUM(v, in, N);
      SWAP(v[0], v[N - 1]);
      FOR_I(i, N) v[i] %= 100003;
      step++;
    }
  }
  long s = 0;
  FOR_I(i, N) s += v[i] * (i + 1);
  printf("rank %d step %d sum %ld\n", rank, step, s);
  MPI_Finalize();
  return 0;
}
