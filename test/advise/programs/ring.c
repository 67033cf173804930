/* Point-to-point rings: MPI_Isend/MPI_Irecv + MPI_Waitall, and blocking
   MPI_Send/MPI_Recv (converted to MPI_Isend/MPI_Irecv), with the data made
   before and used after the communication; array buffers. */
#include <mpi.h>
#include <stdio.h>

#define N 128

static int rank, nranks;
static double out[N], in[N], acc[N];

static void fill(double *x, int it) {
  for (int k = 0; k < N; ++k) x[k] = rank * 1000.0 + it * 10.0 + k;
}

static void accumulate(const double *x, int it) {
  for (int k = 0; k < N; ++k) acc[k] += x[k] * (it + 1);
}

static void ring_nonblocking(int niter) {
  MPI_Request reqs[2];
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  for (int it = 0; it < niter; ++it) {
    fill(out, it);
    MPI_Irecv(in, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(out, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    accumulate(in, it);
  }
}

static void ring_blocking(int niter) {
  int right = (rank + 1) % nranks, left = (rank + nranks - 1) % nranks;
  MPI_Status st;
  int source = -1;
  for (int it = 0; it < niter; ++it) {
    fill(out, it + 100);
    MPI_Sendrecv(out, N, MPI_DOUBLE, right, 9, in, N, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &st);
    accumulate(in, it);
    source = st.MPI_SOURCE;
  }
  if (niter > 0 && source != left) printf("wrong source %d\n", source);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int runs[] = {0, 1, 2, 5};
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < N; ++k) acc[k] = 0;
    ring_nonblocking(runs[r]);
    ring_blocking(runs[r]);
    double local = 0, global = 0;
    for (int k = 0; k < N; ++k) local += acc[k] * (k + 1) + in[k] + out[k];
    MPI_Reduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("ring niter=%d result=%.3f\n", runs[r], global);
  }
  MPI_Finalize();
  return 0;
}
