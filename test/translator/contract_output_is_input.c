// The tool never writes over its input: '-o' naming the input file, by the
// same path, another spelling of it, or a symbolic link to it, is refused
// before anything is translated, and the input is left as it was.
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir/sub
// RUN: cp %s %t.dir/in.c
// RUN: not %tucana-translate %t.dir/in.c -o %t.dir/in.c -- 2>&1 | FileCheck %s -DIN=%t.dir/in.c --match-full-lines --implicit-check-not=error:
// CHECK: tucana-translate: error: refusing to write the output over the input file '[[IN]]'
// RUN: diff %s %t.dir/in.c
// RUN: not %tucana-translate %t.dir/in.c -o %t.dir/sub/../in.c -- 2>&1 | FileCheck %s -DIN=%t.dir/in.c --match-full-lines --implicit-check-not=error:
// RUN: diff %s %t.dir/in.c
// RUN: ln -s in.c %t.dir/link.c
// RUN: not %tucana-translate %t.dir/in.c -o %t.dir/link.c -- 2>&1 | FileCheck %s -DIN=%t.dir/in.c --match-full-lines --implicit-check-not=error:
// RUN: diff %s %t.dir/in.c
// Nothing else was written next to it (no temporary file left behind).
// RUN: ls -A %t.dir | FileCheck %s --check-prefix=LS --match-full-lines --implicit-check-not={{.}}
// LS: in.c
// LS-NEXT: link.c
// LS-NEXT: sub

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana compute
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
}
