// A loop pragma written before the superblock pragma (`#pragma GCC unroll
// 2` then `#pragma tucana superblock`): the loop pragma must stay right
// before its loop, so the superblock's tables go before the loop pragma's
// line. (They went between the two: "for, while or do statement expected".)
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 4 %t.exe | sort | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | sort | FileCheck %s --check-prefix=OUT --match-full-lines

// CHECK: {{ *}}tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
// CHECK-NEXT: #line [[#@LINE+14]] "{{.*}}superblock_after_loop_pragma.c"
// CHECK-NEXT: #pragma GCC unroll 2
// CHECK-EMPTY:
// CHECK-NEXT: {{ *}}for (int it = 0; it < 4; it++) { for (int tucana_sb0_r; {{.*}}
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int l = (rank + size - 1) % size, r = (rank + 1) % size;
  long v = rank, in = 0, out = 0;
  MPI_Request q[2];
#pragma GCC unroll 2
#pragma tucana superblock
  for (int it = 0; it < 4; it++) {
#pragma tucana receive
    MPI_Irecv(&in, 1, MPI_LONG, l, 0, MPI_COMM_WORLD, &q[0]);
#pragma tucana send
    { out = v; MPI_Isend(&out, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &q[1]); }
#pragma tucana compute
    { MPI_Waitall(2, q, MPI_STATUSES_IGNORE); v = v * 2 + in; }
  }
  printf("rank %d v %ld\n", rank, v);
  MPI_Finalize();
  return 0;
}
// OUT: rank 0 v 152
// OUT-NEXT: rank 1 v 105
// OUT-NEXT: rank 2 v 90
// OUT-NEXT: rank 3 v 139
