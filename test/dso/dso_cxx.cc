// A shared library of the program's own, in C++, with dynamically
// initialized globals: each subrank has its own copy, initialized for it
// (docs/privatization.md, "Shared libraries").
#include <mpi.h>

#include <string>
#include <vector>

namespace {
volatile int seed = 40;  // (read at run time: a dynamic initializer)
int compute() { return seed + 2; }
std::vector<int> make_vec() {
  std::vector<int> v(4, 7);
  v.reserve(16);  // one buffer for a subrank's pushes below: a shared one would mix them
  return v;
}
}  // namespace

int dso_cxx_value = compute();
std::vector<int> dso_cxx_vec = make_vec();
static std::string dso_cxx_name = std::string("sub") + "rank";

// For a subrank's n-th call (a barrier between calls), with its own
// copies: value 42 + n (rank + 1), the vector 7 7 7 7 then n times its rank,
// the name "subrank" then n times 'x'. Returns 1 when all hold, else 0.
extern "C" int dso_cxx_step(int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  dso_cxx_value += rank + 1;
  dso_cxx_vec.push_back(rank);
  dso_cxx_name += 'x';
  int barrier_ok = MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS;  // let the others push
  bool ok = barrier_ok && dso_cxx_value == 42 + n * (rank + 1) && dso_cxx_vec.size() == 4u + static_cast<unsigned>(n) &&
            dso_cxx_name == "subrank" + std::string(static_cast<std::size_t>(n), 'x');
  for (std::size_t i = 0; i < dso_cxx_vec.size(); ++i) ok = ok && dso_cxx_vec[i] == (i < 4 ? 7 : rank);
  return ok ? 1 : 0;
}
