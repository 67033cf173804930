// SPEC.md, "Runtime": "Global and static variables are shared by the
// subranks of a process unless privatized; the translator privatizes them."
// Each subrank must see its own copy of a global and of a static variable
// (shared, both would print 3).
//
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

int calls;

static int bump(void) {
  static int local_calls;
  return ++local_calls;
}

int main(int argc, char **argv) {
  int rank, last = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i <= rank; i++) {
    calls++;
    last = bump();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: calls %d static %d\n", rank, calls, last);
  MPI_Finalize();
  return 0;
}

// OUT-DAG: rank 0: calls 1 static 1
// OUT-DAG: rank 1: calls 2 static 2
