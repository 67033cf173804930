/* no annotations: globals holding addresses of other globals (arrays of pointers, function-static pointing to a global,
   extern incomplete array, function pointer table), sizeof/typeof on globals, getopt on argv, errno */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
double a[4], b[4];
double *bufs[2] = {a, b};
double **pbufs = &bufs[1];
long tbl[];
long tbl[3] = {1, 2, 3};
typeof(tbl[0]) shadow = sizeof(tbl) / sizeof(tbl[0]);
static int add(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
int (*ops[2])(int) = {add, dbl};
const char *label = "start";
static int *where(void) { static int *p = (int *)&shadow; return p; }
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 4; i++) { bufs[0][i] = rank + i; (*pbufs)[i] = rank * 2 + i; }
  if (rank % 2) { ops[0] = dbl; label = "odd"; }
  tbl[rank % 3] += rank * 10;
  *(long *)where() += rank;
  int c, flags = 0;
  optind = 1;
  while ((c = getopt(argc, argv, "x")) != -1) flags++;
  errno = 0;
  strtol("99999999999999999999999", NULL, 10);
  int e = errno == ERANGE;
  MPI_Barrier(MPI_COMM_WORLD);
  errno = rank;
  MPI_Barrier(MPI_COMM_WORLD);
  int e2 = errno;
  double s = 0;
  for (int i = 0; i < 4; i++) s += a[i] * 10 + b[i];
  printf("rank %d s %.1f op %d label %s tbl %ld %ld %ld shadow %ld flags %d e %d e2 %d optind %d\n", rank, s, ops[0](5), label,
         tbl[0], tbl[1], tbl[2], shadow, flags, e, e2, optind);
  MPI_Finalize();
  return 0;
}
