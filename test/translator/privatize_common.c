// -fcommon (issue 27): tentative definitions of one variable in two files
// are one variable, as with plain mpicc -fcommon. Privatized, they become
// weak definitions in the section (a section's definitions are not common
// symbols), which link the same way; each subrank still has its own.
//
// RUN: %tucana-translate %s -o %t.c -- -fcommon 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c
// RUN: %tucanacc -fcommon -Wall %s %S/Inputs/privatize_common_b.c -o %t.exe 2>&1 | count 0
// RUN: %tucana-run -np 1 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
// Without -fcommon the initialized definition stays an ordinary one.
// RUN: %tucana-translate %s -o %t.nocommon.c -- 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=NOCOMMON --input-file=%t.nocommon.c
#include <mpi.h>
#include <stdio.h>

// CHECK: int counter TUCANA_PRIVATE __attribute__((weak));
// NOCOMMON: int counter TUCANA_PRIVATE;
int counter;
// CHECK: int table[8] TUCANA_PRIVATE __attribute__((weak));
int table[8];
// An initialized definition is strong either way.
// CHECK: int limit TUCANA_PRIVATE = 3;
int limit = 3;
void bump_other(void);

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  counter += rank;
  bump_other();
  table[0] += 1;
  MPI_Barrier(MPI_COMM_WORLD);
  int errors = (counter != rank + 100) + (table[0] != 11) + (limit != 3), all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("common: %d subranks, %d errors\n", size, all);
  MPI_Finalize();
  return 0;
}

// OUT: common: {{[0-9]+}} subranks, 0 errors
