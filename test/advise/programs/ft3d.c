/* A NAS FT-shaped program: 3D arrays of a complex struct passed to functions,
   MPI_Alltoall in the time loop, a checksum (with an MPI_Reduce) after it,
   timers under #pragma cco ignore, the loop marked #pragma cco do. */
#include <mpi.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

typedef struct { double re, im; } dcomplex;
#define NX 8
#define NY 8
#define NZ 8
static dcomplex u0[NZ][NY][NX], u1[NZ][NY][NX], u2[NZ][NY][NX];
static dcomplex scratch[NZ * NY * NX];
static dcomplex sendbuf[NZ * NY * NX], recvbuf[NZ * NY * NX];
static double twiddle[NZ][NY][NX];
static int me, np;
static double timers[4];
void timer_start(int t);
void timer_stop(int t);

static void evolve(dcomplex (*x0)[NY][NX], dcomplex (*x1)[NY][NX], double (*tw)[NY][NX]) {
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        x0[k][j][i].re *= tw[k][j][i];
        x0[k][j][i].im *= tw[k][j][i];
        x1[k][j][i] = x0[k][j][i];
      }
}

static void cffts(dcomplex (*x)[NY][NX], dcomplex *out) {
  int n = 0;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        scratch[n].re = x[k][j][i].re + 0.5 * x[k][j][(i + 1) % NX].im;
        scratch[n].im = x[k][j][i].im - 0.5 * x[k][j][(i + 1) % NX].re;
        out[n] = scratch[n];
        n++;
      }
}

static void unpack(const dcomplex *in, dcomplex (*x)[NY][NX]) {
  memcpy(x, in, sizeof(dcomplex) * NX * NY * NZ);
}

static void checksum(int it, dcomplex (*x)[NY][NX]) {
  dcomplex chk = {0, 0}, all;
  for (int j = 1; j <= 64; j++) {
    int q = j % NX, r = (3 * j) % NY, s = (5 * j) % NZ;
    chk.re += x[s][r][q].re;
    chk.im += x[s][r][q].im;
  }
  MPI_Reduce(&chk, &all, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("T = %5d Checksum = %22.12e %22.12e\n", it, all.re, all.im);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        u0[k][j][i].re = sin(me + k + j * 0.1 + i * 0.01);
        u0[k][j][i].im = cos(me + k * 0.3 + j + i);
        twiddle[k][j][i] = exp(-1e-3 * (i * i + j * j + k * k));
      }
  int niter = argc > 1 ? 0 : 6;
  int count = NX * NY * NZ * 2 / np;
#pragma cco do
  for (int iter = 1; iter <= niter; iter++) {
#pragma cco ignore
    timer_start(1);
    evolve(u0, u1, twiddle);
    cffts(u1, sendbuf);
    MPI_Alltoall(sendbuf, count, MPI_DOUBLE, recvbuf, count, MPI_DOUBLE, MPI_COMM_WORLD);
    unpack(recvbuf, u2);
#pragma cco ignore
    timer_stop(1);
    checksum(iter, u2);
  }
  MPI_Finalize();
  return 0;
}
void timer_start(int t) { timers[t] -= MPI_Wtime(); }
void timer_stop(int t) { timers[t] += MPI_Wtime(); }
