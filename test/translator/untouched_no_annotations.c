// A file without any annotation (and without a mutable global, which
// would be privatized) comes out of tucana-translate byte for
// byte as it went in: no #include, no #line, nothing. Other pragmas, the
// words "#pragma tucana" in comments and strings, annotations in code the
// preprocessor skips, tabs, trailing blanks and a last line without a
// newline all pass unchanged.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: diff %s %t.c
// RUN: %tucana-translate %s -- > %t.stdout.c
// RUN: diff %s %t.stdout.c

#include <mpi.h>
#include <stdio.h>

#define SWAP(a, b)      \
  do {                  \
    double *t_ = (a);   \
    (a) = (b);          \
    (b) = t_;           \
  } while (0)

static const char *const note = "#pragma tucana superblock is only a string here";

/* #pragma tucana superblock   (a comment) */
int main(int argc, char **argv) {
	int rank, size;	/* a tab before and after */   
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a[4] = {0}, b[4] = {0}, *u = a, *v = b;
  MPI_Request req[2];
#pragma GCC unroll 2
  for (int i = 0; i < 4; i++)
    a[i] = i;
#pragma omp parallel for
  for (int i = 0; i < 4; i++)
    b[i] = 2 * a[i];
#if 0
#pragma tucana superblock
  for (int it = 0; it < 3; it++) {
#pragma tucana compute
    SWAP(u, v);
  }
#endif
  for (int it = 0; it < 3; it++) {
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&v[3], 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    SWAP(u, v);
  }
  if (rank == 0) printf("%s %g\n", note, u[0]);
  MPI_Finalize();
  return 0;
}
// (no newline at the end of this file)