// A computed goto (GNU C `goto *table[i]`) inside a region is fine when
// every label whose address the function takes is in that region: it
// cannot leave the region. A label of another region (or outside the
// superblock) among them makes it an error, as a plain goto there is.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: not %tucana-translate %s -o %t.bad.c -- -DLABEL_ELSEWHERE 2>&1 | FileCheck %s --check-prefix=BAD -DFILE=%s

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size;
  double a = 0, b = 0, acc = 0;
  MPI_Request rq[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  a = rank;
#pragma tucana superblock
  for (int it = 0; it < 6; it++) {
#pragma tucana region(post)
    {
      MPI_Irecv(&b, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(&a, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &rq[1]);
    }
#pragma tucana region(wait) depends(post)
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    // CHECK: case 2: { /* region dispatch */
    // CHECK-NEXT: {{ *}}{
    // CHECK-NEXT: {{ *}}static void *table[] {{.*}}= {&&add, &&twice, &&done};
#pragma tucana region(dispatch) depends(wait)
    {
      static void *table[] = {&&add, &&twice, &&done};
      // With a label of another region in the function, both computed
      // gotos may leave their regions:
      // BAD: [[FILE]]:[[@LINE+1]]:7: error: 'goto' cannot leave a superblock's regions (each region runs on its own, once per iteration)
      goto *table[it % 3];
    add:
      acc += b;
      goto done;
    twice:
      acc += 2 * b;
    done:
      a = a + 1;
    }
#ifdef LABEL_ELSEWHERE
#pragma tucana region(other) depends(dispatch)
    {
      static void *far[] = {&&elsewhere};
      // BAD: [[FILE]]:[[@LINE+1]]:7: error: 'goto' cannot leave a superblock's regions (each region runs on its own, once per iteration)
      goto *far[0];
    }
#pragma tucana region(last) depends(other)
    {
    elsewhere:
      acc += 0;
    }
#endif
  }
  double tot = 0;
  MPI_Reduce(&acc, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("tot %g\n", tot);
  MPI_Finalize();
  return 0;
}
// OUT: tot 32
