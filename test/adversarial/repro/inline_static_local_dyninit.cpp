// A static local with dynamic initialization in an inline (in-class) member function is not privatized: the
// translator warns "'base' is not privatized ...: it is a static local with dynamic initialization in an inline
// function". docs/privatization.md lists "static local of an inline function (C++)" as privatized and names only the
// "declared together with other variables" case as an exception, so the docs do not cover this case.
// Expected: rank k prints "g 1000+k"; tucana-run -np 1 --vf 4 prints "g 1000" at every rank (the first subrank's value).
#include <mpi.h>
#include <cstdio>
struct Box {
  static long compute(int r) { return 1000 + r; }
  long get(int r) { static long base = compute(r); return base; }
};
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Box b;
  long g = b.get(rank);
  std::printf("rank %d g %ld\n", rank, g);
  MPI_Finalize();
  return 0;
}
