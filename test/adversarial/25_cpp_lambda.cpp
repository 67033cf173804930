// lambdas in regions: capturing by reference and value, generic lambda, lambda posting requests, immediately invoked
#include <mpi.h>
#include <cstdio>
#include <array>
#include <algorithm>
#include <numeric>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  std::array<int, 6> u{}, in{}, out{};
  std::iota(u.begin(), u.end(), rank * 6);
  MPI_Request rq[2];
  auto post = [&](int tag) { MPI_Irecv(in.data(), 6, MPI_INT, left, tag, MPI_COMM_WORLD, &rq[0]); };
  auto scale = [](auto x, auto k) { return x * k; };
  long acc = 0;
#pragma tucana superblock
  for (int it = 0; it < 7; it++) {
#pragma tucana receive
    post(it);
#pragma tucana send
    {
      std::transform(u.begin(), u.end(), out.begin(), [=](int v) { return scale(v, 2) + it; });
      [&]() { MPI_Isend(out.data(), 6, MPI_INT, right, it, MPI_COMM_WORLD, &rq[1]); }();
    }
#pragma tucana compute
    {
      auto wait_all = [&rq]() { MPI_Waitall(2, rq, MPI_STATUSES_IGNORE); };
      wait_all();
      for (int i = 0; i < 6; i++) u[i] = (u[i] + in[i]) % 1000;
      acc += std::accumulate(u.begin(), u.end(), 0L, [](long a, int b) { return a + b; });
    }
  }
  std::printf("rank %d acc %ld\n", rank, acc);
  MPI_Finalize();
  return 0;
}
