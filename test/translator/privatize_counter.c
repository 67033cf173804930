// The counter example of docs/privatization.md: three subranks of one
// process each count once in a global and print 1 (shared, they would
// print 3, 3, 3).
//
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 3 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucanacc --privatize=no --no-global-warnings %s -o %t.shared.exe
// RUN: %tucana-run -np 1 --vf 3 %t.shared.exe | FileCheck %s --check-prefix=SHARED

#include <mpi.h>
#include <stdio.h>
int counter;
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  counter++;
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: counter %d\n", rank, counter);
  MPI_Finalize();
  return 0;
}

// OUT-DAG: rank 0: counter 1
// OUT-DAG: rank 1: counter 1
// OUT-DAG: rank 2: counter 1
// SHARED-DAG: rank 0: counter 3
// SHARED-DAG: rank 1: counter 3
// SHARED-DAG: rank 2: counter 3
