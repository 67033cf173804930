// Static data member of a class template: not privatized (warned: "it belongs to a template"; documented in
// docs/privatization.md "members of templates"). Expected "rounds 1" per rank; tucana-run -np 1 --vf 4 prints
// values up to 4 (one counter shared by the subranks of a process).
#include <mpi.h>
#include <cstdio>
template <int N> struct Halo { static int rounds; };
template <int N> int Halo<N>::rounds = 0;
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Halo<3>::rounds++;
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d rounds %d\n", rank, Halo<3>::rounds);
  MPI_Finalize();
  return 0;
}
