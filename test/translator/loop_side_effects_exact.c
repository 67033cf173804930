// The loop header stays as written, so a condition and an increment with
// side effects run exactly once per iteration, as in the original program:
// with three regions, `step` ends at 8 (not 512) and the condition is
// evaluated 4 times (not 12). A while loop whose condition an earlier
// region changes stops where the original stops.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size, i, evals = 0, step = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double in = 0.0, out = 0.0, acc = 0.0;
  MPI_Request req[2];
  // CHECK: for (i = 0; (evals++, i < 3); i++, step *= 2) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma tucana superblock
  for (i = 0; (evals++, i < 3); i++, step *= 2) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    { out = rank + i; MPI_Isend(&out, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD, &req[1]); }
#pragma tucana compute
    { MPI_Waitall(2, req, MPI_STATUSES_IGNORE); acc += in; }
  }
  double time = 0.0;
  int cycles = 0;
  // CHECK: while (time < 1.0) { for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
#pragma tucana superblock
  while (time < 1.0) {
#pragma tucana region(advance)
    time += 0.3;
#pragma tucana region(count) depends(advance)
    cycles++;
  }
  // OUT: rank 0: step 8 evals 4 i 3 cycles 4
  if (rank == 0) printf("rank 0: step %d evals %d i %d cycles %d\n", step, evals, i, cycles);
  MPI_Finalize();
  return 0;
}
