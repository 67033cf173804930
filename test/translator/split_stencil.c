// Interior/boundary splitting of a compute region (docs/translator.md,
// "Splitting a compute region"): the compute region waits, copies the
// received rows into the ghost rows of u (rows 0 and rows + 1, outside the
// nest's rows 1 .. rows), then sweeps u into v. The iterations i = 2 ..
// rows - 1 read no ghost row: that interior runs while the messages travel
// (when tucana_sb_split_clear finds no overlap with the requests' buffers
// or between u and v); the rows next to the ghosts (i = 1 and i = rows)
// after tucana_sb_await_deps, in the nest as written, which now runs over
// the boundary boxes (or the whole box when the interior did not run). The
// compute region needs only the code of receive and send to have run
// (TUCANA_DEP_RAN). Columns need no halo: nothing before the nest writes
// columns 0 or NY + 1. Every line keeps its number.
//
// RUN: %tucana-translate -Rtucana-split %s -o %t.c -- 2>&1 | FileCheck %s --check-prefix=REMARK -DFILE=%s --match-full-lines
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// (the plain program under mpirun -np 2 prints the same two sums)
// OUT-DAG: rank 0 sum 8.044921875
// OUT-DAG: rank 1 sum 9.955078125

#include <mpi.h>
#include <stdio.h>

#define NX 8
#define NY 6

/* A 2D stencil on rows [1, rows] of a (rows + 2) x (NY + 2) block. */
static void step(int rows, double (*u)[NY + 2], double (*v)[NY + 2], double *rup, double *rdown, int up,
                 int down, int iterations) {
  MPI_Request req[4];
  double sup[NY + 2], sdown[NY + 2];
// CHECK:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}0, TUCANA_DEP_RAN}, {1, TUCANA_DEP_RAN}};
// CHECK:   tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
// CHECK-NEXT:   tucana_sb_track_buffers(tucana_sb0);
#pragma tucana superblock
  for (int it = 0; it < iterations; it++) {
#pragma tucana receive
    {
      MPI_Irecv(rup, NY + 2, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(rdown, NY + 2, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[1]);
    }
#pragma tucana send
    {
      for (int j = 0; j < NY + 2; j++) {
        sup[j] = u[1][j];
        sdown[j] = u[rows][j];
      }
      MPI_Isend(sup, NY + 2, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(sdown, NY + 2, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[3]);
    }
// CHECK: case 2: { /* region compute */ long long tucana_sb0_r2_box[4] = {(1), (rows) + 1, (1), (NY + 1)}; static const int tucana_sb0_r2_halo[4] = {1, 1, 0, 0}; long long tucana_sb0_r2_boxes[24]; int tucana_sb0_r2_n = tucana_split_boxes(2, tucana_sb0_r2_box, tucana_sb0_r2_halo, tucana_sb0_r2_boxes); int tucana_sb0_r2_split = 0; if (tucana_sb0_r2_n > 0) { tucana_span tucana_sb0_r2_spans[] = {{[{][{]}}(const void *)&(u)[tucana_sb0_r2_box[0] - 1][tucana_sb0_r2_box[2] - 1], (const void *)(&(u)[tucana_sb0_r2_box[1]][tucana_sb0_r2_box[3]] + 1), 0}, {(const void *)&(v)[tucana_sb0_r2_box[0]][tucana_sb0_r2_box[2]], (const void *)(&(v)[tucana_sb0_r2_box[1] - 1][tucana_sb0_r2_box[3] - 1] + 1), 1}}; tucana_sb0_r2_split = tucana_sb_split_clear(tucana_sb0, 2, tucana_sb0_r2_spans); } if (tucana_sb0_r2_split) { const long long *tucana_box = tucana_sb0_r2_boxes;
// CHECK-NEXT: #line [[@LINE+18]] "[[FILE]]"
// CHECK-NEXT:       for (int i = (int)tucana_box[0]; i < (int)tucana_box[1]; i++)
// CHECK-NEXT:         for (int j = (int)tucana_box[2]; j < (int)tucana_box[3]; j++)
// CHECK-NEXT:           v[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) / 4;
// CHECK-NEXT:  } tucana_sb_await_deps(tucana_sb0);
// CHECK-NEXT: #line [[@LINE+2]] "[[FILE]]"
#pragma tucana compute
    {
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      for (int j = 0; j < NY + 2; j++) {
        u[0][j] = rup[j];
        u[rows + 1][j] = rdown[j];
      }
      // REMARK: [[FILE]]:[[@LINE+5]]:7: remark: region 'compute' split: its interior (i in [1 + 1, (rows) + 1 - 1), j in [1, NY + 1)) runs while the messages travel; its boundary after 'receive' arrives
      // CHECK: for (int tucana_sb0_r2_b = tucana_sb0_r2_split ? 1 : tucana_sb0_r2_n; tucana_sb0_r2_b < (tucana_sb0_r2_split ? tucana_sb0_r2_n : tucana_sb0_r2_n + 1); ++tucana_sb0_r2_b) { const long long *tucana_box = tucana_sb0_r2_boxes + 4 * tucana_sb0_r2_b; for (int i = (int)tucana_box[0]; i < (int)tucana_box[1]; i++)
      // CHECK-NEXT:         for (int j = (int)tucana_box[2]; j < (int)tucana_box[3]; j++)
      // CHECK-NEXT:           v[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) / 4; }
      // CHECK-NEXT:       for (int i = 1; i <= rows; i++)
      for (int i = 1; i <= rows; i++)
        for (int j = 1; j < NY + 1; j++)
          v[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) / 4;
      for (int i = 1; i <= rows; i++)
        for (int j = 1; j <= NY; j++) u[i][j] = v[i][j];
    }
  }
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double u[NX + 2][NY + 2] = {{0}}, v[NX + 2][NY + 2] = {{0}}, rup[NY + 2] = {0}, rdown[NY + 2] = {0};
  for (int j = 0; j < NY + 2; j++) u[1][j] = rank + 1;
  step(NX, u, v, rup, rdown, (rank + size - 1) % size, (rank + 1) % size, 5);
  double sum = 0;
  for (int i = 1; i <= NX; i++)
    for (int j = 1; j <= NY; j++) sum += u[i][j];
  printf("rank %d sum %.17g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
