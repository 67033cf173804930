/* mpi_pingpong.c: MPI ping-pong latency/bandwidth between ranks 0 and 1
 * (any other ranks wait in a barrier). Plain MPI, built twice: with mpicc
 * (native) and with tucanacc (virtual ranks under tucana-run).
 *
 * usage: mpi_pingpong [BYTES [ITERS [REPS]]]   (defaults 8, 10000, 7)
 *
 * Each repetition times ITERS round trips with MPI_Send/MPI_Recv after a
 * warm-up; the median repetition is reported by rank 0 as one line:
 *   pingpong bytes=8 iters=10000 reps=7 latency_us=0.312 bandwidth_MBps=25.6
 * latency_us is half a round trip; bandwidth_MBps = BYTES / latency (1 MB =
 * 10^6 bytes). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ITERS round trips between ranks 0 and 1; returns the seconds they took. */
static double round_trips(int rank, char *buf, int bytes, long iters) {
  MPI_Status st;
  double t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &st);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st);
      MPI_Send(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    }
  }
  return MPI_Wtime() - t0;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long bytes = argc > 1 ? strtol(argv[1], NULL, 10) : 8;
  long iters = argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
  int reps = argc > 3 ? atoi(argv[3]) : 7;
  if (size < 2 || bytes < 0 || bytes > (1L << 30) || iters < 1 || reps < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: mpi_pingpong [BYTES [ITERS [REPS]]] on at least 2 ranks (got %d)\n", size);
    MPI_Finalize();
    return 1;
  }

  if (rank < 2) {
    char *buf = malloc(bytes > 0 ? (size_t)bytes : 1);
    double *lat_us = malloc(sizeof(double) * (size_t)reps);
    if (!buf || !lat_us) MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, rank + 1, (size_t)bytes);
    long warmup = iters / 10 > 10 ? iters / 10 : 10;
    round_trips(rank, buf, (int)bytes, warmup);
    for (int r = 0; r < reps; ++r)
      lat_us[r] = round_trips(rank, buf, (int)bytes, iters) / (double)iters / 2.0 * 1e6;
    if (rank == 0) {
      qsort(lat_us, (size_t)reps, sizeof(double), compare_doubles);
      double median = reps % 2 ? lat_us[reps / 2] : 0.5 * (lat_us[reps / 2 - 1] + lat_us[reps / 2]);
      printf("pingpong bytes=%ld iters=%ld reps=%d latency_us=%.3f bandwidth_MBps=%.1f min_latency_us=%.3f\n",
             bytes, iters, reps, median, (double)bytes / median, lat_us[0]);
      fflush(stdout);
    }
    free(lat_us);
    free(buf);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
