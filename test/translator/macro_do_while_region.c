// A region pragma before a statement written as a macro call that
// expands to `do { ... } while (0)`: the pragma annotates the macro's whole
// statement, not a statement inside it. (The statements of an expansion
// share its text range; which one the pragma went to used to depend on
// the rest of the file, and with this one it was the inner call: "statement
// is not inside any region".)
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>
#define RECV(buf, from, st) do { MPI_Recv((buf), 1, MPI_DOUBLE, (from), 0, MPI_COMM_WORLD, (st)); } while (0)
#define SEND(buf, to) do { MPI_Send((buf), 1, MPI_DOUBLE, (to), 0, MPI_COMM_WORLD); } while (0)
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a = rank, b = 0, acc = 0; MPI_Status st;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
#pragma tucana superblock
  for (int it = 0; it < 5; it++) {
    // CHECK: case 0: { /* region send */
    // CHECK-NEXT: {{ *}}SEND(&a, right); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana send
    SEND(&a, right);
    // CHECK: case 1: { /* region receive */
    // CHECK-NEXT: {{ *}}RECV(&b, left, &st); tucana_sb_ran(tucana_sb0, 1); break; }
#pragma tucana receive
    RECV(&b, left, &st);
#pragma tucana compute
    { acc += b; a = a + 1; acc += 0; if (acc > 1e9) { int x[3] = {1,2,3}; acc -= x[0]; } }
  }
  double tot; MPI_Reduce(&acc, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (!rank) printf("tot %g\n", tot);
  MPI_Finalize();
}
// OUT: tot 70
