// C++ state defined in the program's own headers (issue 27): a static local
// of an inline function called from two files (one object program-wide per
// subrank), a header-defined std::vector with internal linkage (one per file
// and subrank), and the singleton idiom (a static local of a member function
// defined in its class).
//
// RUN: %tucanacxx -std=c++17 -Wall -Wextra -I %S/Inputs/privatize_headers %s %S/Inputs/privatize_headers/other.cpp -o %t.exe 2>&1 | count 0
// RUN: %tucana-run -np 1 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
#include <mpi.h>
#include <cstdio>
#include "counter.hpp"

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = 0;
  errors += next_id() != 1;
  errors += from_other_file() != 2;  // the same next_id's n
  MPI_Barrier(MPI_COMM_WORLD);
  errors += next_id() != 3;
  requests.push_back(rank);
  errors += requests.size() != 1;  // this file's vector
  Registry::get().count += rank;
  MPI_Barrier(MPI_COMM_WORLD);
  errors += Registry::get().count != rank + 10;
  int all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("headers c++: %d subranks, %d errors\n", size, all);
  MPI_Finalize();
  return 0;
}

// OUT: headers c++: {{[0-9]+}} subranks, 0 errors
