#include <mpi.h>
#include <stdio.h>
void post_receive(int peer, int tag);
void post_send(int peer, int tag, const double *u);
double absorb(double *u);
int posted_count(void);
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  double u[3] = {rank, rank + 0.5, rank + 0.25}, acc = 0;
#pragma tucana superblock
  for (int it = 0; it < 7; it++) {
#pragma tucana receive
    post_receive(l, it);
#pragma tucana send
    post_send(r, it, u);
#pragma tucana compute
    acc += absorb(u);
  }
  /* outside any region: the functions run as written */
  post_receive(r, 99);
  post_send(l, 99, u);
  acc += absorb(u);
  printf("rank %d acc %.9f posted %d\n", rank, acc, posted_count());
  MPI_Finalize();
  return 0;
}
