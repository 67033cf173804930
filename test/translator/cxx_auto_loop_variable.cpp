// A C++ superblock loop may declare its loop variable with 'auto', e.g. an
// iterator: each region's copy must have a type that names the same type
// where the translation puts it (or be declared with auto / decltype).
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
  // CHECK: /* tucana: superblock cxx_auto_loop_variable.cpp:{{[0-9]+}}, regions scale add (translated by tucana-translate) */
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
