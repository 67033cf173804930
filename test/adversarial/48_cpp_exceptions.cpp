// exceptions thrown and caught inside a region, std::vector<MPI_Request>, virtual calls in regions
#include <mpi.h>
#include <cstdio>
#include <stdexcept>
#include <vector>
#include <memory>
struct Op { virtual ~Op() {} virtual long apply(long a, long b) const = 0; };
struct Add : Op { long apply(long a, long b) const override { return (a + b) % 7919; } };
struct Mul : Op { long apply(long a, long b) const override { if (b % 5 == 0) throw std::runtime_error("zero"); return (a * b) % 7919; } };
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  std::vector<std::unique_ptr<Op>> ops;
  ops.emplace_back(new Add);
  ops.emplace_back(new Mul);
  std::vector<MPI_Request> reqs(2);
  long v = rank + 2, in = 0, out = 0;
  int caught = 0;
#pragma tucana superblock
  for (int it = 0; it < 8; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &reqs[0]);
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &reqs[1]); }
#pragma tucana compute
    {
      MPI_Waitall((int)reqs.size(), reqs.data(), MPI_STATUSES_IGNORE);
      try {
        v = ops[it % 2]->apply(v, in);
      } catch (const std::exception &e) {
        caught++;
        v = ops[0]->apply(v, 1);
      }
    }
  }
  std::printf("rank %d v %ld caught %d\n", rank, v, caught);
  MPI_Finalize();
  return 0;
}
