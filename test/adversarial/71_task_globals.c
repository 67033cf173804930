/* tasks and taskloops that read and write privatized globals and statics (each rank its own copy), a taskloop inside
   a compute region, #pragma tucana shared on an idempotent per-process table */
#include <mpi.h>
#include <stdio.h>
#define N 12
long field[N];
long hits;
static long partial[4];
#pragma tucana shared
int table[8];
static long work(int i) { static long calls; calls++; return (field[i] * 5 + table[i % 8]) % 1009 + calls * 0; }
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < 8; i++) table[i] = i * i;   /* every subrank writes the same values */
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  for (int i = 0; i < N; i++) field[i] = rank * N + i;
  long in = 0, out = 0;
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 4; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = field[N - 1]; MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      field[0] = (field[0] + in) % 1009;
#pragma tucana taskloop num_tasks(3)
      for (int i = 1; i < N; i++) field[i] = work(i);
    }
  }
  for (int c = 0; c < 4; c++) {
#pragma tucana task depend(inout: hits)
    { for (int i = c * 3; i < c * 3 + 3; i++) partial[c] += field[i]; hits += c + 1; }
  }
#pragma tucana taskwait
  long s = 0;
  for (int c = 0; c < 4; c++) s = s * 31 + partial[c];
  printf("rank %d s %ld hits %ld\n", rank, s, hits);
  MPI_Finalize();
  return 0;
}
