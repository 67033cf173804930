// Task pragmas inside superblock regions (docs/tasks.md, "Tasks in
// superblocks"): a region that spawns tasks is done when they have
// finished, so the send region that depends on the region computing the
// boundary value runs after that task, while the other regions go on; the
// program checks its sums against the values it must have.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c
// RUN: %tucanacc -O2 %s -o %t.exe
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// OUT-COUNT-4: rank {{[0-9]}}: sum right
// OUT-NOT: WRONG

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
/* A superblock whose compute region spawns tasks for the boundary value and
 * the interior; the send region depends on the region that computed the
 * boundary, so it runs once that task is done. */
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double edge = 0, ghost = 0, sum = 0, part[4] = {0, 0, 0, 0};
  MPI_Request r[2];
#pragma tucana superblock
  for (int it = 0; it < 10; ++it) {
#pragma tucana region(boundary)
    {
// CHECK: tucana_task_spawn(__tucana_task_0{{.*}}
#pragma tucana task shared(edge)
      edge = rank * 100.0 + it;
    }
#pragma tucana region(send) depends(boundary)
    { MPI_Isend(&edge, 1, MPI_DOUBLE, right, it, MPI_COMM_WORLD, &r[0]); }
#pragma tucana region(recv)
    { MPI_Irecv(&ghost, 1, MPI_DOUBLE, left, it, MPI_COMM_WORLD, &r[1]); }
#pragma tucana region(interior)
    {
// CHECK: tucana_taskloop({{.*}}__tucana_taskloop_0{{.*}}
#pragma tucana taskloop shared(part)
      for (int k = 0; k < 4; ++k) part[k] = k + it;
    }
#pragma tucana region(finish) depends(send, recv, interior)
    {
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      sum += ghost + part[0] + part[3];
    }
  }
  double expected = 0;
  for (int it = 0; it < 10; ++it) expected += left * 100.0 + it + it + 3 + it;
  printf("rank %d: sum %s\n", rank, sum == expected ? "right" : "WRONG");
  MPI_Finalize();
  return 0;
}
