// A blocking call in a receive or send region is posted only when nothing
// later in the region can reach its buffer: not by name, not through a
// function it calls (over the functions of the file, transitively), not
// through another pointer or reference. A region that reads the received
// data in a callee (`MPI_Recv(&ghost, ...); unpack();`) or rewrites a
// send buffer in one (`MPI_Send(sbuf, ...); reset_sbuf();`) keeps the call
// blocking; so does one that writes memory through a pointer after a
// receive into memory reached through a pointer. A callee that computes on
// values only, or one that touches only its own locals, lets the call be
// posted. The run below gives the sums of the original program (a posted
// receive made them 93/14/63 instead of 115/15/65 at 4 ranks).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>
#include <stdio.h>

static double ghost, sbuf[2], acc;
static double *cursor = &acc;

static void unpack(void) { acc += ghost; }
static void reset_sbuf(void) { sbuf[0] = sbuf[1] = 0.0; }
static void through_cursor(void) { *cursor += 1.0; }
static double square(double x) { return x * x; }
static int only_locals(int k) {
  int t[4] = {k, k + 1, k + 2, k + 3}, s = 0;
  for (int i = 0; i < 4; i++) s += t[i];
  return s;
}

int main(int argc, char **argv) {
  int rank, size, steps = 5, k = 0;
  double in[2] = {0, 0}, out[2] = {0, 0}, extra = 0.0, *pin = in, other[2] = {0, 0}, *alias = other;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  (void)alias;
#pragma bamboo olap
  for (int s = 0; s < steps; s++) {
    // The sends the first three receives match (blocking: out is named
    // again in the block).
#pragma bamboo send
    {
      MPI_Send(&out[0], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
      MPI_Send(&out[1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
      MPI_Send(&out[0], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
    }
    // unpack() reads ghost: stays blocking.
    // CHECK: MPI_Recv(&TUCANA_PRIV(ghost), 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &st);
#pragma bamboo receive
    {
      MPI_Recv(&ghost, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &st);
      unpack();
    }
    // square() computes on a value: posted.
    // CHECK: tucana_sb_recv(&in[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
#pragma bamboo receive
    {
      MPI_Recv(&in[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
      extra += square(2.0) + only_locals(k);
    }
    // A write through another pointer after a receive through a pointer:
    // stays blocking (the pointers may alias).
    // CHECK: MPI_Recv(pin + 1, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &st);
#pragma bamboo receive
    {
      MPI_Recv(pin + 1, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &st);
      through_cursor();
    }
    // reset_sbuf() rewrites the send buffer: stays blocking.
    // CHECK: MPI_Send(TUCANA_PRIV(sbuf), 2, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
#pragma bamboo send
    {
      MPI_Send(sbuf, 2, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
      reset_sbuf();
    }
    // Nothing after it: posted.
    // CHECK: {{.*}} tucana_sb_send(out, 2, MPI_DOUBLE, right, 4, MPI_COMM_WORLD); tucana_sb_ran({{.*}}
#pragma bamboo send
    MPI_Send(out, 2, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
#pragma bamboo receive
    {
      double tmp[2];
      MPI_Recv(tmp, 2, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &st);
      acc += tmp[0] + tmp[1];
      MPI_Recv(tmp, 2, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &st);
      acc += tmp[0] - tmp[1];
    }
    acc += in[0] + in[1];
    sbuf[0] = rank + s;
    sbuf[1] = 2 * s;
    out[0] = rank * s;
    out[1] = s + 1;
    k++;
  }
  double total = 0.0, mine = acc + extra;
  MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("total %.1f\n", total);
  MPI_Finalize();
  return 0;
}
// OUT: total 584.0
