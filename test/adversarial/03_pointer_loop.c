/* superblock whose loop iterates over a pointer range; region reads *p */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int coef[] = {3, 1, 4, 1, 5, 9, 2, 6};
  int *end = coef + sizeof coef / sizeof coef[0];
  long val = rank + 1, got = 0, sent;
  MPI_Request r[2];
#pragma tucana superblock
  for (int *p = coef; p != end; ++p) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_LONG, left, 0, MPI_COMM_WORLD, &r[0]);
#pragma tucana send
    { sent = val * *p; MPI_Isend(&sent, 1, MPI_LONG, right, 0, MPI_COMM_WORLD, &r[1]); }
#pragma tucana compute
    { MPI_Waitall(2, r, MPI_STATUSES_IGNORE); val = (val + got + *p) % 1000003; if (p[0] == 9) p++; }
  }
  printf("rank %d val %ld\n", rank, val);
  MPI_Finalize();
  return 0;
}
