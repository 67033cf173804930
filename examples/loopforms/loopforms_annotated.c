/* loopforms: superblocks over every kind of loop a user writes, with the
 * loop forms that a translator easily gets wrong: a condition and an
 * increment with side effects, a time loop whose condition a region
 * changes, do-while, an increment at the end of the body, a loop header
 * from a macro, a loop variable changed inside a region and read through a
 * pointer. Each loop passes a value around a ring of ranks. The output is
 * the same under plain MPI and translated under Tucana (test: examples.*).
 *
 *   loopforms [ITERATIONS]        (default 6) */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define FOR_EACH_STEP(v, n) for ((v) = 0; (v) < (n); ++(v))

/* One ring step: receive from the left, send to the right, add. The
 * requests are waited for in the compute part. */
static double ring_value(double mine, double got) { return 0.5 * mine + got + 1.0; }

int main(int argc, char **argv) {
  int rank, size, left, right;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  int iters = argc > 1 ? atoi(argv[1]) : 6;
  double mine = rank + 1.0, got = 0.0, out;
  MPI_Request req[2];
  int i, evals = 0, step = 1;

  /* 1. Side effects in the condition and the increment. */
#pragma tucana superblock
  for (i = 0; (evals++, i < 3); i++, step *= 2) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    { out = mine; MPI_Isend(&out, 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]); }
#pragma tucana compute
    { MPI_Waitall(2, req, MPI_STATUSES_IGNORE); mine = ring_value(mine, got); }
  }
  double total;
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("for with side effects: i %d step %d evals %d sum %.12g\n", i, step, evals, total);

  /* 2. A time loop whose condition the compute region changes. */
  double time = 0.0, stop = iters * 0.75, dt = 0.5;
  int cycles = 0;
#pragma tucana superblock
  while (time < stop) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    { out = dt; MPI_Isend(&out, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      dt = 0.5 * (dt + got) + 0.01;
      time += dt;
      cycles++;
    }
  }
  double tmax;
  MPI_Allreduce(&time, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("while time loop: cycles %d time %.12g\n", cycles, tmax);

  /* 3. do-while, the increment at the end of the body, a macro header. */
  int k = 0;
#pragma tucana superblock
  do {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    { out = mine + k; MPI_Isend(&out, 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]); }
#pragma tucana compute
    { MPI_Waitall(2, req, MPI_STATUSES_IGNORE); mine = ring_value(mine, got); k++; }
  } while (k < iters);
  int j;
#pragma tucana superblock
  for (j = 0; j < iters;) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    { out = mine - j; MPI_Isend(&out, 1, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &req[1]); }
#pragma tucana compute
    { MPI_Waitall(2, req, MPI_STATUSES_IGNORE); mine = ring_value(mine, got); j++; }
  }
  int m;
#pragma tucana superblock
  FOR_EACH_STEP(m, iters) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    { out = mine * 0.25; MPI_Isend(&out, 1, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &req[1]); }
#pragma tucana compute
    { MPI_Waitall(2, req, MPI_STATUSES_IGNORE); mine = ring_value(mine, got); }
  }
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("do-while, end-of-body increment, macro header: k %d j %d m %d sum %.12g\n", k, j, m, total);

  /* 4. The loop variable changed inside a region and read through a
   * pointer; a goto inside a region. */
  int n, *pn = &n, skipped = 0;
#pragma tucana superblock
  for (n = 0; n < 4 * iters; n++) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    { out = *pn; MPI_Isend(&out, 1, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &req[1]); }
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      mine = ring_value(mine, got);
      if (*pn % 3 != 0) goto done;
      n += 1; /* skips the next iteration */
      skipped++;
    done:;
    }
  }
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("loop variable changed in a region: n %d skipped %d sum %.12g\n", n, skipped, total);
  if (rank == 0) printf("loopforms: OK\n");
  MPI_Finalize();
  return 0;
}
