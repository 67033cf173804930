/* C99/C11: VLAs sized at run time used as buffers in regions, _Generic, compound literals, designated initializers */
#include <mpi.h>
#include <stdio.h>
#define MPITYPE(x) _Generic((x), int: MPI_INT, long: MPI_LONG, double: MPI_DOUBLE)
struct pair { int a; long b; };
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  int n = 3 + argc;   /* 4 */
  long u[n], in[n], out[n];
  double m[n][n];
  for (int i = 0; i < n; i++) { u[i] = rank + i; for (int j = 0; j < n; j++) m[i][j] = (i == j) ? 1.0 : 0.5; }
  struct pair pr = {.b = rank, .a = 1};
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
#pragma tucana receive
    MPI_Irecv(in, n, MPITYPE(in[0]), l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { for (int i = 0; i < n; i++) out[i] = u[i] + (struct pair){.a = it, .b = 2}.a; MPI_Isend(out, n, MPITYPE(out[0]), r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      double t[n];
      for (int i = 0; i < n; i++) { t[i] = 0; for (int j = 0; j < n; j++) t[i] += m[i][j] * in[j]; }
      for (int i = 0; i < n; i++) u[i] = ((long)t[i] + u[i]) % 4093;
      pr.b += (long[]){1, 2, 3}[it % 3];
    }
  }
  long s = 0;
  for (int i = 0; i < n; i++) s += u[i] * (i + 1);
  printf("rank %d s %ld pr %d %ld\n", rank, s, pr.a, pr.b);
  MPI_Finalize();
  return 0;
}
