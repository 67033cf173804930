// --line N limits the rewrite to the loops with a site at one of the lines
// given; every loop gets a note. The checks of the output's C: the
// default test frequency comes from --test-freq.
//
// RUN: %tucana-cco rewrite --mpi %s -o %t.c --line 22 --test-freq 4 -- | FileCheck %s -DFILE=%s
// RUN: FileCheck %s --check-prefix=OUT < %t.c
// RUN: not %tucana-cco rewrite --mpi %s -o %t2.c --line x -- 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tucana-cco: error: --line needs a line number
#include <mpi.h>

double a[4], b[4];

void first(int n) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'i': not rewritten: no site at the lines given with --line
  for (int i = 0; i < n; ++i) {
    MPI_Allreduce(a, b, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
void second(int n) {
  // CHECK: [[FILE]]:[[@LINE+1]]:3: note: loop over 'j': pipelined MPI_Allreduce at line 22
  for (int j = 0; j < n; ++j) {
    MPI_Allreduce(a, b, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
// OUT: #define TUCANA_CCO_TEST_FREQ 4
// OUT: MPI_Allreduce(a, b, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
// OUT: MPI_Iallreduce(a, b, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &tucana_cco_req_22[0]);
