// superblock over a std::list iterator loop and std::map bookkeeping inside regions
#include <mpi.h>
#include <cstdio>
#include <list>
#include <map>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  std::list<int> tags{4, 8, 15, 16, 23, 42};
  std::map<int, long> seen;
  long v = rank + 1, in = 0, out = 0;
  MPI_Request q[2];
#pragma tucana superblock
  for (std::list<int>::iterator t = tags.begin(); t != tags.end(); ++t) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, *t, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = v * *t; MPI_Isend(&out, 1, MPI_LONG, r, *t, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); seen[*t] = in; v = (v + in) % 99991; }
  }
  long s = 0;
  for (auto it = seen.rbegin(); it != seen.rend(); ++it) s = s * 3 + it->second % 1000;
  std::printf("rank %d v %ld s %ld n %zu\n", rank, v, s, seen.size());
  MPI_Finalize();
  return 0;
}
