#!/usr/bin/env bash
# Writes an annotated C program of about LINES lines (default 5000): many
# functions, each a halo-exchange loop annotated as a Toucan-form superblock
# or an explicit region graph, for the translation-speed benchmark.
# usage: gen_annotated.sh [LINES] > big.c
set -euo pipefail
lines=${1:-5000}
printf '#include <mpi.h>\n#include <stdlib.h>\n\n'
n=3
i=0
# (kernels are 32 and 39 lines; main is one line per kernel plus 12)
while [ $((n + i + 12)) -lt "$lines" ]; do
  if [ $((i % 2)) -eq 0 ]; then
    cat <<EOF
/* kernel $i: Toucan form */
static double kernel_$i(double *u, double *v, int n, int iters, int left, int right) {
  MPI_Request req[4];
  double sl, sr, rl = 0.0, rr = 0.0;
  #pragma tucana superblock
  for (int it = 0; it < iters; it++) {
    #pragma tucana receive
    {
      MPI_Irecv(&rl, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(&rr, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    }
    #pragma tucana send
    {
      sl = u[1];
      sr = u[n];
      MPI_Isend(&sl, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(&sr, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    }
    #pragma tucana compute
    {
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      u[0] = rl;
      u[n + 1] = rr;
      for (int k = 1; k <= n; k++) v[k] = 0.5 * u[k] + 0.25 * (u[k - 1] + u[k + 1]);
      double *t = u;
      u = v;
      v = t;
    }
  }
  return u[1];
}

EOF
    n=$((n + 32))
  else
    cat <<EOF
/* kernel $i: explicit graph */
static double kernel_$i(double *u, double *v, int n, int iters, int left, int right) {
  MPI_Request rq[2], sq[2];
  double sl = 0.0, sr = 0.0, rl = 0.0, rr = 0.0;
  #pragma tucana superblock
  for (int it = 0; it < iters; it++) {
    #pragma tucana region(recv) depends(unpack*)
    {
      MPI_Irecv(&rl, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv(&rr, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[1]);
    }
    #pragma tucana region(pack) depends(compute*, send*)
    {
      sl = u[1];
      sr = u[n];
    }
    #pragma tucana region(send) depends(pack)
    {
      MPI_Isend(&sl, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &sq[0]);
      MPI_Isend(&sr, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &sq[1]);
    }
    #pragma tucana region(unpack) depends(recv, compute*)
    {
      MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
      u[0] = rl;
      u[n + 1] = rr;
    }
    #pragma tucana region(compute) depends(unpack, send)
    {
      MPI_Waitall(2, sq, MPI_STATUSES_IGNORE);
      for (int k = 1; k <= n; k++) v[k] = 0.5 * u[k] + 0.25 * (u[k - 1] + u[k + 1]);
      double *t = u;
      u = v;
      v = t;
    }
  }
  return u[1];
}

EOF
    n=$((n + 39))
  fi
  i=$((i + 1))
done
echo "int main(int argc, char **argv) {"
echo "  MPI_Init(&argc, &argv);"
echo "  int rank, size;"
echo "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);"
echo "  MPI_Comm_size(MPI_COMM_WORLD, &size);"
echo "  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;"
echo "  double *u = calloc(66, sizeof *u), *v = calloc(66, sizeof *v), s = 0.0;"
for ((k = 0; k < i; k++)); do echo "  s += kernel_$k(u, v, 64, 2, left, right);"; done
echo "  free(u);"
echo "  free(v);"
echo "  MPI_Finalize();"
echo "  return s < 0.0;"
echo "}"
