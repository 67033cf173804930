// A C++ superblock loop over an iterator declared with 'auto': the loop
// header stays exactly as written (its initialization, condition and
// increment run where and as often as in the original program), so any
// loop variable type works.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.cpp --match-full-lines
// RUN: %tucanacxx --no-translate -std=c++17 -Wall -Wextra -Werror -c %t.cpp -o %t.o
// RUN: %tucanacxx -std=c++17 %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>

#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> v{1, 2, 3, 4};
  long sum = 0;
  // CHECK: { /* tucana: superblock cxx_iterator_loop.cpp:{{[0-9]+}}, regions scale add (translated by tucana-translate) */
  // CHECK: #line [[@LINE+3]] "{{.*}}cxx_iterator_loop.cpp"
  // CHECK-NEXT:   for (auto it = v.begin(); it != v.end(); ++it) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma tucana superblock
  for (auto it = v.begin(); it != v.end(); ++it) {
#pragma tucana region(scale)
    *it *= 10;
#pragma tucana region(add) depends(scale)
    sum += *it;
  }
  if (rank == 0)
    std::printf("sum %ld\n", sum);
  MPI_Finalize();
  return 0;
}

// OUT: sum 100
