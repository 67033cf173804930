// C++ tasks: reference locals (captured by value, shared() to write), std::vector via pointer, lambdas inside tasks
#include <mpi.h>
#include <cstdio>
#include <vector>
static long f(long x) { return (x * 7 + 3) % 1009; }
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<long> v(16);
  for (int i = 0; i < 16; i++) v[i] = rank * 16 + i;
  long *pv = v.data();
  long result = 0;
  long &res = result;
  long partial[4] = {0, 0, 0, 0};
  for (int c = 0; c < 4; c++) {
#pragma tucana task shared(partial)
    {
      auto g = [&](long x) { return f(x) + c; };
      for (int i = c * 4; i < c * 4 + 4; i++) { pv[i] = g(pv[i]); partial[c] += pv[i]; }
    }
  }
#pragma tucana taskwait
#pragma tucana task shared(res, partial)
  { for (int c = 0; c < 4; c++) res += partial[c] * (c + 1); }
#pragma tucana taskwait
  long all = 0;
  MPI_Allreduce(&result, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d result %ld v15 %ld all %ld\n", rank, result, v[15], all);
  MPI_Finalize();
  return 0;
}
