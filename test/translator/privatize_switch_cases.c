// Globals used in the statements of a switch's cases are privatized (the
// case labels' values stay as written: constants). Before, every use under
// a case label was taken for a constant context and left shared, so each
// subrank read the others' values there.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT

#include <mpi.h>
#include <stdio.h>

enum { FIRST = 1 };
static int rank, seen;
static const int second = 2;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int step = 0; step < 3; ++step) {
    switch (step) {
    // CHECK: case 0: TUCANA_PRIV(seen) += TUCANA_PRIV(rank); break;
    case 0: seen += rank; break;
    // CHECK: case FIRST: { MPI_Barrier(MPI_COMM_WORLD); TUCANA_PRIV(seen) += 10 * TUCANA_PRIV(rank); } break;
    case FIRST: { MPI_Barrier(MPI_COMM_WORLD); seen += 10 * rank; } break;
    // CHECK: case 2: MPI_Allreduce(MPI_IN_PLACE, &TUCANA_PRIV(seen), 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); break;
    case 2: MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); break;
    default: break;
    }
  }
  (void)second;
  // Every subrank's own: 11 * rank before the MAX, then the largest rank's.
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) printf("seen %s\n", seen == 11 * (size - 1) ? "max of own values" : "WRONG");
  // OUT: seen max of own values
  MPI_Finalize();
  return 0;
}
