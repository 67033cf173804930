// tucana-translate aborts (assertion in clang::NamedDecl::getName) on a task whose statement calls a lambda
// declared earlier in the same function. Legal C++; expected: a translation, or a clear error naming the capture.
#include <mpi.h>
#include <cstdio>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  auto weight = [](long x) { return x * 3 + 1; };
  long out = 0;
  long *po = &out;
#pragma tucana task
  *po = weight(2);
#pragma tucana taskwait
  std::printf("out %ld\n", out);
  MPI_Finalize();
  return 0;
}
