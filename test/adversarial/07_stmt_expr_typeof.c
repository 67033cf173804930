/* GNU statement expressions, typeof, __auto_type inside regions and loop headers */
#include <mpi.h>
#include <stdio.h>
#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define SUMARR(p, n) ({ __typeof__(*(p)) _s = 0; for (int _i = 0; _i < (n); _i++) _s += (p)[_i]; _s; })
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  long buf[4] = {rank, rank * 2, rank * 3, 7}, in[4], out[4];
  typeof(buf[0]) best = 0;
  MPI_Request r[2];
#pragma tucana superblock
  for (__auto_type it = ({ int z = 0; z; }); it < ({ int lim = 5; lim; }); it++) {
#pragma tucana receive
    ({ MPI_Irecv(in, 4, MPI_LONG, left, 9, MPI_COMM_WORLD, &r[0]); });
#pragma tucana send
    {
      for (typeof(it) k = 0; k < 4; k++) out[k] = ({ long t = buf[k] * 3 + it; t % 101; });
      MPI_Isend(out, 4, MPI_LONG, right, 9, MPI_COMM_WORLD, &r[1]);
    }
#pragma tucana compute
    {
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      __auto_type s = SUMARR(in, 4);
      best = MAX(best, s);
      for (int k = 0; k < 4; k++) buf[k] = MAX(buf[k], in[k]) + ({ int q = k; q * it; });
    }
  }
  printf("rank %d best %ld buf %ld %ld %ld %ld\n", rank, best, buf[0], buf[1], buf[2], buf[3]);
  MPI_Finalize();
  return 0;
}
