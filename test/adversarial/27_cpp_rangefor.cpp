// superblock on a range-for over a std::vector of step descriptors (by const reference), structured data
#include <mpi.h>
#include <cstdio>
#include <vector>
#include <string>
struct Step { int tag; long factor; };
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  std::vector<Step> plan{{3, 2}, {5, 7}, {8, 1}, {13, 4}, {21, 3}};
  long val = rank + 1, in = 0, out = 0;
  std::string trace;
  MPI_Request q[2];
#pragma tucana superblock
  for (const Step &st : plan) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, st.tag, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = val * st.factor; MPI_Isend(&out, 1, MPI_LONG, r, st.tag, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); val = (val + in) % 100000; trace += std::to_string(st.tag) + ":" + std::to_string(in % 10) + " "; }
  }
  std::vector<int> counts(3, 0);
#pragma tucana superblock
  for (auto &c : counts) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 99, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = val + (long)(&c - counts.data()); MPI_Isend(&out, 1, MPI_LONG, r, 99, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); c = (int)(in % 1000); }
  }
  std::printf("rank %d val %ld trace %s counts %d %d %d\n", rank, val, trace.c_str(), counts[0], counts[1], counts[2]);
  MPI_Finalize();
  return 0;
}
