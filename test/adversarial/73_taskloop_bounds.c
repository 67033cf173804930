/* taskloop trip counts: unsigned reverse loop with !=, negative starts, bound on the left, i = S + i, empty ranges,
   bounds near INT_MAX, char loop variable, step from a variable; each iteration writes its own slot */
#include <mpi.h>
#include <stdio.h>
#include <limits.h>
#define M 64
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long hit[8][M] = {{0}};
  long (*h)[M] = hit;
  unsigned n = 5;
#pragma tucana taskloop num_tasks(2)
  for (unsigned i = n - 1; i != (unsigned)-1; i--) h[0][i] += 1;
#pragma tucana taskloop grainsize(2)
  for (long i = -5; i < 5; i += 2) h[1][i + 5] += 1;
#pragma tucana taskloop num_tasks(3)
  for (int i = 0; 10 > i; i = 3 + i) h[2][i] += 1;
  int a = 7, b = 3;
#pragma tucana taskloop
  for (int i = a; i <= b; i++) h[3][i] += 1;
#pragma tucana taskloop num_tasks(4)
  for (int i = INT_MAX - 3; i <= INT_MAX - 1; i++) h[4][INT_MAX - i] += 1;
#pragma tucana taskloop num_tasks(2)
  for (char c = 'a'; c <= 'k'; c++) h[5][c - 'a'] += 1;
  int step = rank + 2;
#pragma tucana taskloop num_tasks(3)
  for (int i = 40; i >= 0; i -= step) h[6][i] += 1;
#pragma tucana taskloop num_tasks(5)
  for (short i = 10; i > 0; i = i - 3) h[7][i] += 1;
  for (int k = 0; k < 8; k++) {
    long c = 0, w = 0;
    for (int i = 0; i < M; i++) { c += hit[k][i]; w += hit[k][i] * (i + 1); }
    printf("rank %d loop %d count %ld weight %ld\n", rank, k, c, w);
  }
  MPI_Finalize();
  return 0;
}
