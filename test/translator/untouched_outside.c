// Code outside superblocks is left as it is, byte for byte: the output is
// this file's text with the runtime's #include and a '#line' inserted right
// before the function that holds the superblock, and the superblock's own
// edits, which all lie between its pragma line and the end of its loop's
// last line. The RUN lines cut the superblock out of both files and compare
// what is left.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
//
// Before the superblock: everything up to its pragma line, less the two
// inserted lines.
// RUN: sed '/^#pragma tucana superblock$/,$d' %s > %t.before.expected
// RUN: sed -e '/^#include <tucana\/superblock.h>$/d' -e '/^#line [0-9]* ".*untouched_outside.c"$/d' -e '/^{ \/\* tucana: superblock /,$d' %t.c > %t.before.actual
// RUN: diff %t.before.expected %t.before.actual
//
// After the superblock: everything after the loop's last line.
// RUN: sed '1,/^  } \/\/ end of the superblock loop$/d' %s > %t.after.expected
// RUN: sed '1,/^  } } tucana_sb_end(tucana_sb0); } \/\/ end of the superblock loop$/d' %t.c > %t.after.actual
// RUN: diff %t.after.expected %t.after.actual
//
// The inserted lines, and the superblock's end on the loop's last line.
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// CHECK: /* Not annotated: stays a plain loop, its waits stay MPI calls. */
// CHECK: #include <tucana/superblock.h>
// CHECK-NEXT: #line {{[0-9]+}} "[[FILE]]"
// CHECK-NEXT: double run(double *u, double *w, int n, int iters, int left, int right) {
// CHECK: } } tucana_sb_end(tucana_sb0); } // end of the superblock loop
// CHECK-NEXT: 	/* after: tabs, */   {{$}}
//
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -Wno-unknown-pragmas -c %t.c -o %t.o

#include <mpi.h>
#include <string.h>

#define HALO 1	/* a tab */   
#define AT(u, i) ((u)[(i) + HALO])

/* Not annotated: stays a plain loop, its waits stay MPI calls. */
static void exchange_blocking(double *u, int n, int left, int right) {
  MPI_Request req[2];
  for (int k = 0; k < 2; k++) {
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, k, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&AT(u, n - 1), 1, MPI_DOUBLE, right, k, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
}

double run(double *u, double *w, int n, int iters, int left, int right) {
  MPI_Request req[2];
  double norm = 0.0;
  exchange_blocking(u, n, left, right);
#pragma omp simd
  for (int i = 0; i < n; i++) AT(w, i) = AT(u, i);
#pragma tucana superblock
  for (int it = 0; it < iters; it++) {
#pragma tucana receive
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&AT(u, n - 1), 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &req[1]);
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      for (int i = 0; i < n; i++)
        AT(w, i) = 0.5 * (AT(u, i - 1) + AT(u, i));
      memcpy(u, w, sizeof(double) * (size_t)(n + 2));
    }
  } // end of the superblock loop
	/* after: tabs, */   
  for (int i = 0; i < n; i++)   
    norm += AT(u, i) * AT(u, i);
  MPI_Waitall(0, req, MPI_STATUSES_IGNORE);
  return norm;
}
