// C++: superblock in a function of an anonymous namespace, extern "C" helper, tasks with shared std::vector and a
// reference local named in shared(...), taskloop writing through a vector's data pointer
#include <mpi.h>
#include <cstdio>
#include <vector>
extern "C" long c_mix(long a, long b) { return (a * 17 + b) % 65521; }
namespace {
long ring(int l, int r, long v) {
  long in = 0, out = 0;
  MPI_Request q[2];
#pragma tucana superblock
  for (int it = 0; it < 4; ++it) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, it, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, r, it, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = c_mix(v, in); }
  }
  return v;
}
}  // namespace
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long v = ring((rank + size - 1) % size, (rank + 1) % size, rank + 1);
  std::vector<long> acc(4, 0);
  long total = 0;
  long &tref = total;
  for (int c = 0; c < 4; c++) {
#pragma tucana task shared(acc)
    acc[c] = c_mix(v, c);
  }
#pragma tucana taskwait
#pragma tucana task shared(tref, acc)
  { for (long a : acc) tref += a; }
#pragma tucana taskwait
  std::vector<long> sq(20);
  long *p = sq.data();
#pragma tucana taskloop grainsize(6)
  for (int i = 0; i < 20; i++) p[i] = (long)i * i + v % 7;
  long s = 0;
  for (long x : sq) s += x;
  std::printf("rank %d v %ld total %ld s %ld\n", rank, v, total, s);
  MPI_Finalize();
  return 0;
}
