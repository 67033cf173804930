// A C++ program with no annotations: virtualized, not translated.
#include <mpi.h>

#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> all(static_cast<std::size_t>(size));
  MPI_Gather(&rank, 1, MPI_INT, all.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long sum = 0;
    for (int r : all) sum += r;
    std::cout << "hello sum " << sum << " on " << size << " ranks\n";
  }
  MPI_Finalize();
  return 0;
}
