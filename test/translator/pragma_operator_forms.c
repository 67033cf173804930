// The annotations written with the _Pragma operator, as macros produce
// them: `_Pragma("...")` before each statement of a superblock (on the
// statement's line or its own), a macro that expands to the _Pragma alone,
// and a superblock _Pragma on the loop's line. The annotation's text (the
// _Pragma up to its ')', or the macro's call) is replaced like a pragma
// line, and the code after it keeps its line and column.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: not grep -n "^ *[A-Z]*_*Pragma(.tucana\|^ *REGION(\|^ *SUPERBLOCK" %t.c
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

#define REGION(text) _Pragma(text)
#define SUPERBLOCK _Pragma("tucana superblock")

int main(int argc, char **argv) {
  int rank, size;
  double a, b = 0, acc = 0;
  MPI_Request rq[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  a = rank;
  // CHECK: #line [[#@LINE+2]] "{{.*}}pragma_operator_forms.c"
  // CHECK-NEXT: {{ +}}for (int it = 0; it < 5; it++) { for (int tucana_sb0_r; {{.*}}
  SUPERBLOCK for (int it = 0; it < 5; it++) {
    // CHECK: case 0: { /* region post */ { MPI_Irecv({{.*}}
    _Pragma("tucana region(post)") { MPI_Irecv(&b, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[0]); MPI_Isend(&a, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[1]); }
    // CHECK: case 1: { /* region wait */
    // CHECK-NEXT: MPI_Waitall(2, rq, MPI_STATUSES_IGNORE); tucana_sb_ran(tucana_sb0, 1); break; }
    _Pragma("tucana region(wait) depends(post)")
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    // CHECK: case 2: { /* region work */
    REGION("tucana region(work) depends(wait)")
    { acc += b; a = a + 1; }
  }
  double tot = 0;
  MPI_Reduce(&acc, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("tot %g\n", tot);
  MPI_Finalize();
  return 0;
}
// OUT: tot 70
