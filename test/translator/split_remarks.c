// Why a compute region is not split (docs/translator.md, "Splitting a
// compute region"): with -Rtucana-split, one remark per region that
// receives data, word for word, at the place at fault; without it, nothing,
// except for a region whose split(N) clause asked for a split (a warning).
// split(off) turns splitting off; split(N) asserts the halo width, so the
// code before the nest may call functions.
//
// RUN: %tucana-translate -Rtucana-split %s -o %t.c -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | FileCheck %s -DFILE=%s --check-prefix=QUIET --match-full-lines --implicit-check-not=remark: --implicit-check-not=warning:
// RUN: %tucanacc --no-translate -Wall -Wextra -c %t.c -o %t.o

#include <mpi.h>

#define N 16
#define FOR(i, lo, hi) for (int i = lo; i < hi; i++)
double f(double);
void sweep(double (*u)[N], double (*v)[N], int n);
void unpack(double (*u)[N], const double *r);

void no_wait(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: remark: region 'comp' is not split: the region waits for no request (MPI_Wait or MPI_Waitall) before its loops, so no part of it can run before the messages arrive
    {
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        for (int j = 0; j < N; j++) v[i][j] = u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void work_in_call(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      // CHECK: [[FILE]]:[[@LINE+1]]:7: remark: region 'comp' is not split: its loops after the last wait are in the called function 'sweep'; a loop nest in a called function is not split (write the loop nest in the region)
      sweep(u, v, n);
      (void)s, (void)w;
    }
  }
}

void step_two(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      // CHECK: [[FILE]]:[[@LINE+1]]:7: remark: region 'comp' is not split: the loop does not count up by one with '<' or '<='
      for (int i = 1; i <= n; i += 2)
        for (int j = 0; j < N; j++) v[i][j] = u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void triangle(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+1]]:22: remark: region 'comp' is not split: the loop bound 'i' depends on the outer loop variable 'i' (the nest must be a box)
        for (int j = i; j < N; j++) v[i][j] = u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void unknown_call(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+1]]:47: remark: region 'comp' is not split: the loop nest calls 'f', which the translator does not see into
        for (int j = 0; j < N; j++) v[i][j] = f(u[i - 1][j]);
      (void)s, (void)w;
    }
  }
}

void sum(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+1]]:37: remark: region 'comp' is not split: the loop nest writes 's', declared outside it: the iterations would not run in their order (only arrays indexed by the loop variables may be written)
        for (int j = 0; j < N; j++) s += u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void in_place(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+1]]:48: remark: region 'comp' is not split: the loop nest reads 'u', which it also writes (its iterations may depend on each other)
        for (int j = 0; j < N; j++) u[i][j] = (u[i - 1][j] + u[i + 1][j]) / 2;
      (void)s, (void)w;
    }
  }
}

void write_not_injective(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+1]]:37: remark: region 'comp' is not split: the write to 'v' does not follow every loop variable (iterations would write the same element)
        for (int j = 0; j < N; j++) v[i][0] = u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void ghost_inside(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      // CHECK: [[FILE]]:[[@LINE+1]]:35: remark: region 'comp' is not split: cannot show that this write into 'u' lies outside the cells the loop nest computes (its subscripts must be a constant or an expression of the loop bounds, e.g. 'lo - 1' or 'hi', in one dimension)
      for (int j = 0; j < N; j++) u[1][j] = r[j];
      for (int i = 1; i <= n; i++)
        for (int j = 0; j < N; j++) v[i][j] = u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void not_affine(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+1]]:49: remark: region 'comp' is not split: subscript 'i * i' of 'u' is not a loop variable of the nest plus a constant
        for (int j = 0; j < N; j++) v[i][j] = u[i * i][j];
      (void)s, (void)w;
    }
  }
}

void pointer_rows(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+1]]:47: remark: region 'comp' is not split: the loop nest subscripts 'w' through pointers stored in memory (its rows are not one block)
        for (int j = 0; j < N; j++) v[i][j] = w[i][j];
      (void)s, (void)w;
    }
  }
}

void declared_before(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      double c = 0.5;
      // CHECK: [[FILE]]:[[@LINE+1]]:7: remark: region 'comp' is not split: the loop nest uses 'c', declared in the region before it (the interior runs before that declaration)
      for (int i = 1; i <= n; i++)
        for (int j = 0; j < N; j++) v[i][j] = c * u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void unpack_call(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: remark: region 'comp' is not split: the region calls 'unpack' before its loop nest: the translator does not see what it writes, so it cannot tell which iterations read received data
      unpack(u, r);
      for (int i = 1; i <= n; i++)
        for (int j = 0; j < N; j++) v[i][j] = u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void macro_header(double (*u)[N], double (*v)[N], double **w, double *r, int n, MPI_Request *req) {
  double s = 0;
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      // CHECK: [[FILE]]:[[@LINE+1]]:7: remark: region 'comp' is not split: the loop header is written by a macro
      FOR (i, 1, n + 1)
        for (int j = 0; j < N; j++) v[i][j] = u[i - 1][j];
      (void)s, (void)w;
    }
  }
}

void off(double (*u)[N], double (*v)[N], double *r, int n, MPI_Request *req) {
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
// CHECK: [[FILE]]:[[@LINE+1]]:62: remark: region 'comp' is not split: split(off)
#pragma tucana region(comp) depends(recv) role(compute) split(off)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      for (int j = 0; j < N; j++) u[0][j] = r[j];
      for (int i = 1; i <= n; i++)
        for (int j = 0; j < N; j++) v[i][j] = u[i - 1][j];
    }
  }
}

void asked(double (*u)[N], double (*v)[N], double *r, int n, MPI_Request *req) {
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute) split(1)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      unpack(u, r);
      for (int i = 1; i <= n; i++)
        // CHECK: [[FILE]]:[[@LINE+2]]:47: warning: region 'comp' is not split, although split(...) asks for it: the loop nest calls 'f', which the translator does not see into
        // QUIET: [[FILE]]:[[@LINE+1]]:47: warning: region 'comp' is not split, although split(...) asks for it: the loop nest calls 'f', which the translator does not see into
        for (int j = 0; j < N; j++) v[i][j] = f(u[i - 1][j]);
    }
  }
}

void asserted(double (*u)[N], double (*v)[N], double *r, int n, MPI_Request *req) {
#pragma tucana superblock
  for (int it = 0; it < 2; it++) {
#pragma tucana region(recv) depends(comp*) role(receive)
    { MPI_Irecv(r, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req[0]); }
#pragma tucana region(comp) depends(recv) role(compute) split(1)
    {
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      unpack(u, r);
      // CHECK: [[FILE]]:[[@LINE+1]]:7: remark: region 'comp' split: its interior (i in [1 + 1, (n) + 1 - 1), j in [0 + 1, N - 1)) runs while the messages travel; its boundary after 'recv' arrives
      for (int i = 1; i <= n; i++)
        for (int j = 0; j < N; j++) v[i][j] = u[i - 1][j];
    }
  }
}
