// Some MPI calls cannot run inside a region at all; the message says why.
// MPI_Finalize: the runtime is still completing the superblock's requests.
// MPI_Init / MPI_Init_thread: MPI starts once per subrank, before any
// superblock. (MPI_Abort is allowed.)
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <mpi.h>

void f(double *a, int n, int argc, char **argv) {
  int provided;
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(start)
    {
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Init_thread cannot run inside a region: MPI is initialized once per subrank, before any superblock
      MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
      if (a[0] < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
#pragma tucana region(stop) depends(start)
    if (i == n - 1)
      // CHECK: [[FILE]]:[[@LINE+1]]:7: error: MPI_Finalize cannot run inside a region: the superblock's requests are still being completed by the runtime
      MPI_Finalize();
  }
}
