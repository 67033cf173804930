// The translation keeps the compiler's messages on this file's lines: the
// runtime's #include is followed by a '#line' back to this file, the
// superblock's tables by a '#line' with the loop's line, and every other
// edit stays on the line it is about, so the regions' code and the code
// after the superblock keep their lines (and their columns).
// Compiling the translation with BREAK_IT defined hits the deliberate errors
// below (hidden from the translator, which copies them as text); the
// compiler must report each one here, not in the generated file.
//
// The translator warns like a compiler; -w silences the warning that is
// there for the compilers below.
// RUN: %tucana-translate %s -o %t.c -- -w 2>&1 | count 0
// RUN: not %cc -fsyntax-only -Wall %mpi-flags -DBREAK_IT %t.c 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: not %tucanacc --no-translate -Wall -DBREAK_IT -c %t.c -o %t.o 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=error: --implicit-check-not=warning:
// Without BREAK_IT, only the warning on the first line of a region remains.
// RUN: %tucanacc --no-translate -Wall -c %t.c -o %t.o 2>&1 | FileCheck %s -DFILE=%s --check-prefix=WARN --implicit-check-not=error: --implicit-check-not=warning:

#include <mpi.h>


void relax(double *u, int n, int steps, int peer) {
  MPI_Request req[2];
  int changed = 0;
#pragma tucana superblock
  for (int s = 0; s < steps; s++) {
    // On the first line of a region: same line, same column.
    // CHECK: [[FILE]]:[[@LINE+3]]:13: warning: {{.*}}
    // WARN: [[FILE]]:[[@LINE+2]]:13: warning: {{.*}}
#pragma tucana receive
    changed == 0;
#pragma tucana send
    {
      MPI_Isend(&u[n - 1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
#ifdef BREAK_IT
      // Inside a region, a few lines down.
      // CHECK: [[FILE]]:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}
      int *in_send = 2.5;
      (void)in_send;
#endif
    }
#pragma tucana compute
    {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      for (int i = 1; i < n - 1; i++)
        u[i] = 0.5 * (u[i - 1] + u[i + 1]);
#ifdef BREAK_IT
      // CHECK: [[FILE]]:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}
      int *in_compute = 3.5;
      (void)in_compute;
#endif
    }
  }
  // After the superblock: back on this file's lines.
#ifdef BREAK_IT
  // CHECK: [[FILE]]:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}
  int *after = 4.5;
  (void)after;
#endif
}
