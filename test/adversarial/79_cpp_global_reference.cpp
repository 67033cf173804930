// no annotations: a global C++ reference bound to a privatized global (a common alias for a config field), and a
// global pointer-to-member / std::array aliasing
#include <mpi.h>
#include <cstdio>
#include <array>
struct Params { int steps = 4; double dt = 0.5; } params;
int &steps = params.steps;
std::array<long, 3> counts{};
long &first = counts[0];
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  steps += rank;
  first += rank * 10;
  counts[1] += 1;
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d steps %d %d counts %ld %ld\n", rank, params.steps, steps, counts[0], counts[1]);
  MPI_Finalize();
  return 0;
}
