// namespaces with globals and class statics (privatized), references to buffers, free functions writing send buffer
#include <mpi.h>
#include <cstdio>
#include <vector>
namespace sim {
int steps_done = 0;
std::vector<double> history;
struct Counter { static int hits; };
int Counter::hits = 0;
namespace detail {
inline void pack(const std::vector<double> &u, std::vector<double> &sb) { sb[0] = u.front(); sb[1] = u.back(); Counter::hits++; }
}
}  // namespace sim
using namespace sim;
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  std::vector<double> grid(10);
  for (int i = 0; i < 10; i++) grid[i] = rank + 0.125 * i;
  std::vector<double> sbuf(2), rbuf(2);
  std::vector<double> &u = grid;
  double &lo = rbuf[0], &hi = rbuf[1];
  MPI_Request q[4];
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana receive
    { MPI_Irecv(&lo, 1, MPI_DOUBLE, l, 0, MPI_COMM_WORLD, &q[0]); MPI_Irecv(&hi, 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD, &q[1]); }
#pragma tucana send
    { detail::pack(u, sbuf); MPI_Isend(&sbuf[1], 1, MPI_DOUBLE, r, 0, MPI_COMM_WORLD, &q[2]); MPI_Isend(&sbuf[0], 1, MPI_DOUBLE, l, 1, MPI_COMM_WORLD, &q[3]); }
#pragma tucana compute
    {
      MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
      u.front() = 0.5 * (u.front() + lo); u.back() = 0.5 * (u.back() + hi);
      for (size_t i = 1; i + 1 < u.size(); i++) u[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      sim::history.push_back(u[5]); ++steps_done;
    }
  }
  double s = 0;
  for (double h : history) s += h;
  std::printf("rank %d steps %d hits %d hist %zu s %.9f\n", rank, steps_done, Counter::hits, history.size(), s);
  MPI_Finalize();
  return 0;
}
