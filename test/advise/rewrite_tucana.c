// rewrite --tucana: the safe loop becomes a superblock with one named region
// per statement; the graph lets Before(i+1) run without waiting for Comm(i)
// and After(i), posts do not wait for each other, and where --mpi would
// replicate a buffer the region waits instead. Only pragma lines are added.
// Loops with declarations in the body or collectives in Before/After are
// refused with the reason.
//
// RUN: %tucana-cco rewrite --tucana %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: grep -v "CHECK\|NOTE" %t.c | FileCheck %s
// RUN: grep -v "^ *#pragma" %t.c > %t.stripped
// RUN: grep -v "^ *#pragma" %s | diff - %t.stripped
#include <mpi.h>

#define N 8
double out[N], in[N], acc[N];
void fill(double *x, int it) {
  for (int k = 0; k < N; ++k) x[k] = it + k;
}

void ring(int niter, int left, int right) {
  MPI_Request reqs[2];
  // NOTE: [[FILE]]:[[@LINE+6]]:3: note: loop over 'it': annotated for Tucana: MPI_Irecv at line [[@LINE+8]] (regions wait instead of replicating 'in', 'out')
  // CHECK: #pragma tucana superblock
  // CHECK-NEXT: for (int it = 0; it < niter; ++it) {
  // CHECK-NEXT: #pragma tucana region(cco_before1) depends(cco_comm3*)
  // CHECK-NEXT: fill(out, it);
  // CHECK-NEXT: #pragma tucana region(cco_comm1) depends(cco_before1, cco_after1*)
  for (int it = 0; it < niter; ++it) {
    fill(out, it);
    MPI_Irecv(in, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(out, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    for (int k = 0; k < N; ++k) acc[k] += in[k];
  }
  // CHECK-NEXT: MPI_Irecv(in, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &reqs[0]);
  // CHECK-NEXT: #pragma tucana region(cco_comm2) depends(cco_before1, cco_after1*)
  // CHECK-NEXT: MPI_Isend(out, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &reqs[1]);
  // CHECK-NEXT: #pragma tucana region(cco_comm3) depends(cco_comm1, cco_comm2)
  // CHECK-NEXT: MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  // CHECK-NEXT: #pragma tucana region(cco_after1) depends(cco_comm3)
  // CHECK-NEXT: for (int k = 0; k < N; ++k) acc[k] += in[k];
}

void declared(int niter) {
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: MPI_Allreduce at line [[@LINE+4]]: declarations in the loop body: a Tucana region cannot be a declaration (declare 'x' before the loop)
  for (int it = 0; it < niter; ++it) {
    double x = it * 2.0;
    acc[1] = x;
    MPI_Allreduce(acc, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
