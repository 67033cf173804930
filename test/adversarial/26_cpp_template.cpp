// function template containing a superblock, instantiated for int and double (MPI type via traits)
#include <mpi.h>
#include <cstdio>
template <typename T> struct mpi_type;
template <> struct mpi_type<int> { static MPI_Datatype get() { return MPI_INT; } };
template <> struct mpi_type<double> { static MPI_Datatype get() { return MPI_DOUBLE; } };
template <typename T, int N>
T ring_sum(T seed, int left, int right, int steps) {
  T buf[N], in[N], out[N];
  for (int i = 0; i < N; i++) buf[i] = seed + (T)i;
  MPI_Request r[2];
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
#pragma tucana receive
    MPI_Irecv(in, N, mpi_type<T>::get(), left, s, MPI_COMM_WORLD, &r[0]);
#pragma tucana send
    { for (int i = 0; i < N; i++) out[i] = buf[i]; MPI_Isend(out, N, mpi_type<T>::get(), right, s, MPI_COMM_WORLD, &r[1]); }
#pragma tucana compute
    { MPI_Waitall(2, r, MPI_STATUSES_IGNORE); for (int i = 0; i < N; i++) buf[i] = (buf[i] + in[N - 1 - i]) / (T)2; }
  }
  T s = 0;
  for (int i = 0; i < N; i++) s += buf[i] * (T)(i + 1);
  return s;
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  int a = ring_sum<int, 4>(rank * 100, l, r, 5);
  double b = ring_sum<double, 3>(rank * 0.5, l, r, 4);
  std::printf("rank %d int %d double %.9f\n", rank, a, b);
  MPI_Finalize();
  return 0;
}
