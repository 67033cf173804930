// superblocks in a constructor, an operator(), a static member function; range-for over an initializer list and with
// structured bindings over a std::map; if-with-initializer inside a region
#include <mpi.h>
#include <cstdio>
#include <map>
#include <utility>
struct Net {
  int l, r;
  long v;
  Net(int rank, int size) : l((rank + size - 1) % size), r((rank + 1) % size), v(rank + 1) {
    long in = 0, out = 0;
    MPI_Request q[2];
#pragma tucana superblock
    for (int t : {5, 6, 7}) {
#pragma tucana receive
      MPI_Irecv(&in, 1, MPI_LONG, l, t, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
      { out = v; MPI_Isend(&out, 1, MPI_LONG, r, t, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = (v * t + in) % 9001; }
    }
  }
  long operator()(const std::map<int, long> &plan) {
    long in = 0, out = 0;
    MPI_Request q[2];
#pragma tucana superblock
    for (const auto &[tag, mult] : plan) {
#pragma tucana receive
      MPI_Irecv(&in, 1, MPI_LONG, r, tag, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
      { out = v * mult; MPI_Isend(&out, 1, MPI_LONG, l, tag, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); if (long d = in % 7; d > 2) v = (v + d) % 9001; else v = (v + in) % 9001; }
    }
    return v;
  }
  static long twice(Net &n) {
    long in = 0, out = 0;
    MPI_Request q[2];
#pragma tucana superblock
    for (auto &&k : {1, 2}) {
#pragma tucana receive
      MPI_Irecv(&in, 1, MPI_LONG, n.l, 40 + k, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
      { out = n.v + k; MPI_Isend(&out, 1, MPI_LONG, n.r, 40 + k, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
      { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); n.v = (n.v * 2 + in) % 9001; }
    }
    return n.v;
  }
};
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Net n(rank, size);
  long a = n.v;
  long b = n({{11, 2}, {12, 3}, {13, 5}});
  long c = Net::twice(n);
  std::printf("rank %d a %ld b %ld c %ld\n", rank, a, b, c);
  MPI_Finalize();
  return 0;
}
