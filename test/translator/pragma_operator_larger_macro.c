// A _Pragma annotation from a macro that expands to more than the _Pragma
// (the annotation and its statement in one macro, or the superblock
// pragma with the loop header): the macro's call stays, its tucana pragma
// ignored by the compiler as in a plain build, and the annotation's
// replacement goes right before the call.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -Wno-unknown-pragmas -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

#define TIME_LOOP(it, n) _Pragma("tucana superblock") for (int it = 0; it < (n); it++)
#define RECEIVE_ONE(buf, from) _Pragma("tucana receive") MPI_Recv((buf), 1, MPI_DOUBLE, (from), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
#define SEND_ONE(buf, to) _Pragma("tucana send") MPI_Send((buf), 1, MPI_DOUBLE, (to), 0, MPI_COMM_WORLD)

int main(int argc, char **argv) {
  int rank, size;
  double u[3] = {0, 0, 0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  u[1] = rank;
  // CHECK: {{ *}}tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#@LINE+2]] "{{.*}}pragma_operator_larger_macro.c"
  // CHECK-NEXT: {{ *}}TIME_LOOP(s, 4) { for (int tucana_sb0_r; {{.*}}
  TIME_LOOP(s, 4) {
    // CHECK: case 0: { /* region send */SEND_ONE(&u[1], right); tucana_sb_ran(tucana_sb0, 0); break; }
    SEND_ONE(&u[1], right);
    // CHECK: case 1: { /* region receive */RECEIVE_ONE(&u[0], left); tucana_sb_ran(tucana_sb0, 1); break; }
    RECEIVE_ONE(&u[0], left);
#pragma tucana compute
    u[2] += u[0], u[1] += 1;
  }
  double tot = 0;
  MPI_Reduce(&u[2], &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("tot %g\n", tot);
  MPI_Finalize();
  return 0;
}
// OUT: tot 48
