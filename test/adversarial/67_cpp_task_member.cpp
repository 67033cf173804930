// (as 66 with the lambda made a function) C++ tasks in a member function (copies of this-> data into locals), taskloop over size_t with !=
// member function that copies what it needs from this into locals, a taskloop over size_t with !=
#include <mpi.h>
#include <cstdio>
#include <vector>
static long weight(long x) { return x * 3 + 1; }
struct Solver {
  std::vector<long> data;
  long run(int rank) {
    long *p = data.data();
    size_t n = data.size();
#pragma tucana taskloop num_tasks(3)
    for (size_t i = 0; i != n; ++i) p[i] = p[i] * 2 + rank;
    long s = 0;
    long *ps = &s;
#pragma tucana task
    { for (size_t i = 0; i < n; i++) *ps += p[i]; }
#pragma tucana taskwait
    return s;
  }
};
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  long out[4] = {0, 0, 0, 0};
  long *po = out;
  for (int k = 0; k < 4; k++) {
#pragma tucana task
    po[k] = weight(k + rank);
  }
#pragma tucana taskwait
  Solver s;
  s.data.assign(10, rank + 1);
  long r = s.run(rank);
  std::printf("rank %d out %ld %ld %ld %ld r %ld\n", rank, out[0], out[1], out[2], out[3], r);
  MPI_Finalize();
  return 0;
}
