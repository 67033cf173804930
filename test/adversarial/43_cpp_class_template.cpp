// class template whose member function holds a superblock; static data member of the template
#include <mpi.h>
#include <cstdio>
template <int N> class Halo {
 public:
  explicit Halo(int rank) { for (int i = 0; i < N; i++) u[i] = rank * N + i; }
  void exchange(int l, int r, int steps) {
    MPI_Request q[2];
#pragma tucana superblock
    for (int s = 0; s < steps; s++) {
#pragma tucana receive
      MPI_Irecv(in, N, MPI_LONG, l, N, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
      { for (int i = 0; i < N; i++) out[i] = u[i] + s; MPI_Isend(out, N, MPI_LONG, r, N, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); for (int i = 0; i < N; i++) u[i] = (u[i] + in[N - 1 - i]) % 7001; rounds++; }
    }
  }
  long sum() const { long t = 0; for (int i = 0; i < N; i++) t += u[i] * (i + 1); return t; }
  static int rounds;
 private:
  long u[N], in[N], out[N];
};
template <int N> int Halo<N>::rounds = 0;
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  Halo<3> a(rank);
  Halo<5> b(rank + 1);
  a.exchange(l, r, 4);
  b.exchange(r, l, 3);
  std::printf("rank %d a %ld b %ld rounds %d %d\n", rank, a.sum(), b.sum(), Halo<3>::rounds, Halo<5>::rounds);
  MPI_Finalize();
  return 0;
}
