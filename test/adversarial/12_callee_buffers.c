/* callees write the send buffer (send region) and read the receive buffer (compute region); receive via callee */
#include <mpi.h>
#include <stdio.h>
#define N 5
typedef struct { long v[N]; } msg_t;
static void fill(msg_t *m, const long *src, int it) { for (int i = 0; i < N; i++) m->v[i] = src[i] * 2 + it; }
static long consume(const msg_t *m, long *dst) { long s = 0; for (int i = 0; i < N; i++) { dst[i] = (dst[i] + m->v[i]) % 4099; s += m->v[i]; } return s; }
static void post(msg_t *m, int src, MPI_Request *r) { MPI_Irecv(m->v, N, MPI_LONG, src, 2, MPI_COMM_WORLD, r); }
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  msg_t in, out;
  long state[N], acc = 0;
  for (int i = 0; i < N; i++) state[i] = rank * 10 + i;
  MPI_Request r[2];
#pragma tucana superblock
  for (int it = 0; it < 9; it++) {
#pragma tucana receive
    post(&in, left, &r[0]);
#pragma tucana send
    { fill(&out, state, it); MPI_Isend(out.v, N, MPI_LONG, right, 2, MPI_COMM_WORLD, &r[1]); }
#pragma tucana compute
    { MPI_Wait(&r[0], MPI_STATUS_IGNORE); acc += consume(&in, state); MPI_Wait(&r[1], MPI_STATUS_IGNORE); }
  }
  printf("rank %d acc %ld st0 %ld\n", rank, acc, state[0]);
  MPI_Finalize();
  return 0;
}
