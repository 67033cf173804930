// class with member function containing a superblock that uses members (this->), std::vector buffers
#include <mpi.h>
#include <cstdio>
#include <vector>
class Ring {
 public:
  Ring(int rank, int size) : rank_(rank), left_((rank + size - 1) % size), right_((rank + 1) % size), u_(8), in_(8), out_(8) {
    for (size_t i = 0; i < u_.size(); i++) u_[i] = rank * 10 + (long)i;
  }
  void run(int steps);
  long checksum() const { long s = 0; for (size_t i = 0; i < u_.size(); i++) s += u_[i] * (long)(i + 1); return s; }
  int calls() const { return calls_; }
 private:
  void mix(int it) { calls_++; for (size_t i = 0; i < u_.size(); i++) u_[i] = (u_[i] * 3 + in_[(i + 1) % in_.size()] + it) % 10007; }
  int rank_, left_, right_, calls_ = 0;
  std::vector<long> u_, in_, out_;
  MPI_Request req_[2];
};
void Ring::run(int steps) {
#pragma tucana superblock
  for (int it = 0; it < steps; ++it) {
#pragma tucana receive
    { MPI_Irecv(in_.data(), (int)in_.size(), MPI_LONG, left_, 1, MPI_COMM_WORLD, &req_[0]); }
#pragma tucana send
    { out_ = u_; MPI_Isend(out_.data(), (int)out_.size(), MPI_LONG, right_, 1, MPI_COMM_WORLD, &this->req_[1]); }
#pragma tucana compute
    { MPI_Waitall(2, req_, MPI_STATUSES_IGNORE); mix(it); }
  }
}
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Ring r(rank, size);
  r.run(5);
  r.run(2);
  std::printf("rank %d checksum %ld calls %d\n", rank, r.checksum(), r.calls());
  MPI_Finalize();
  return 0;
}
