/* coll_bench.c: time of one collective call on MPI_COMM_WORLD: Barrier,
 * Bcast (8 B and 1 MiB), Allreduce (one double and 1 MiB of doubles, MPI_SUM)
 * and Alltoall (a block per pair of ranks, 1 KiB by default). Plain MPI,
 * built twice: with mpicc (native) and with tucanacc (virtual ranks under
 * tucana-run).
 *
 * usage: coll_bench [-c CASES] [-t SECONDS] [-n ITERS] [-b BLOCK] [-v]
 *   -c CASES    comma-separated list of cases to run, in this order (default all):
 *               barrier, bcast8, bcast1m, allreduce8, allreduce1m, alltoall
 *   -t SECONDS  time each case is timed for (default 0.3); the iteration
 *               count is calibrated to it (the iteration scale)
 *   -n ITERS    a fixed iteration count instead of the calibration
 *   -b BLOCK    Alltoall bytes per pair of ranks (default 1024)
 *   -v          iteration counts and times on stderr
 *
 * Each case runs 2 warm-up calls, then a calibration (rank 0 times 1, 2, 4,
 * ... calls until they take a tenth of SECONDS and broadcasts the iteration
 * count that fills SECONDS, so every rank runs the same count), then the
 * timed loop between two barriers. The result is the mean time per call of
 * the slowest rank (MPI_Reduce MAX), printed by rank 0 as one line per case:
 *   barrier,64,12.345
 * (case,ranks,usec_per_call). Results are checked (Bcast contents,
 * Allreduce sums, Alltoall blocks) before and after the timed loop; a wrong
 * result is reported on stderr and the job is aborted (exit status != 0). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBcastBig = 1 << 20, kAllreduceBig = (1 << 20) / (int)sizeof(double) };

/* All of a rank's state (no mutable globals: under Tucana the subranks of a
 * process share them). */
struct bench {
  int rank, size, verbose;
  double target_s;
  long fixed_iters;
  int block; /* Alltoall bytes per pair */
  unsigned char *bytes;         /* Bcast buffer, kBcastBig bytes */
  double *in, *out;             /* Allreduce buffers, kAllreduceBig doubles */
  unsigned char *a2a_in, *a2a_out; /* Alltoall buffers, size * block bytes */
};

enum kind { BARRIER, BCAST, ALLREDUCE, ALLTOALL };

struct bcase {
  const char *option; /* name in -c */
  enum kind kind;
  int count;          /* bytes (Bcast), doubles (Allreduce) */
};

static const struct bcase kCases[] = {
    {"barrier", BARRIER, 0},
    {"bcast8", BCAST, 8},
    {"bcast1m", BCAST, kBcastBig},
    {"allreduce8", ALLREDUCE, 1},
    {"allreduce1m", ALLREDUCE, kAllreduceBig},
    {"alltoall", ALLTOALL, 0},
};
enum { kNumCases = (int)(sizeof(kCases) / sizeof(kCases[0])) };

static void fail(const struct bench *b, const char *name, const char *what, long index, double got,
                 double expected) {
  fprintf(stderr, "coll_bench: rank %d: %s: WRONG RESULT: %s at element %ld: got %g, expected %g\n", b->rank,
          name, what, index, got, expected);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 2);
  exit(2);
}

/* "8B", "1KiB", "1MiB", "1536B" */
static void size_name(char *out, size_t len, long bytes) {
  if (bytes >= (1L << 20) && bytes % (1L << 20) == 0)
    snprintf(out, len, "%ldMiB", bytes >> 20);
  else if (bytes >= 1024 && bytes % 1024 == 0)
    snprintf(out, len, "%ldKiB", bytes >> 10);
  else
    snprintf(out, len, "%ldB", bytes);
}

static unsigned char pattern(int seed, int a, int b, long i) {
  return (unsigned char)((uint32_t)seed * 131u + (uint32_t)a * 31u + (uint32_t)b * 17u + (uint32_t)i * 7u);
}

/* The data every rank puts in before a call of the case (seed tells apart
 * the checked calls); the receive side is cleared so that a call that writes
 * nothing is caught. */
static void fill(struct bench *b, const struct bcase *c, int seed) {
  switch (c->kind) {
    case BARRIER:
      break;
    case BCAST:
      for (long i = 0; i < c->count; ++i) b->bytes[i] = b->rank == 0 ? pattern(seed, 0, 0, i) : 0xEE;
      break;
    case ALLREDUCE:
      for (long i = 0; i < c->count; ++i) {
        b->in[i] = (double)(b->rank + seed) + (double)i;
        b->out[i] = -1.0;
      }
      break;
    case ALLTOALL:
      for (int r = 0; r < b->size; ++r)
        for (int i = 0; i < b->block; ++i) {
          b->a2a_out[(size_t)r * (size_t)b->block + (size_t)i] = pattern(seed, b->rank, r, i);
          b->a2a_in[(size_t)r * (size_t)b->block + (size_t)i] = 0xEE;
        }
      break;
  }
}

/* Checks what the last call of the case left, filled with `seed`. */
static void check(const struct bench *b, const struct bcase *c, const char *name, int seed) {
  switch (c->kind) {
    case BARRIER:
      break;
    case BCAST:
      for (long i = 0; i < c->count; ++i)
        if (b->bytes[i] != pattern(seed, 0, 0, i))
          fail(b, name, "broadcast byte", i, b->bytes[i], pattern(seed, 0, 0, i));
      break;
    case ALLREDUCE: {
      /* sum over ranks r of (r + seed + i): exact in doubles at these sizes */
      double n = (double)b->size;
      for (long i = 0; i < c->count; ++i) {
        double expected = n * (n - 1.0) / 2.0 + n * ((double)seed + (double)i);
        if (b->out[i] != expected) fail(b, name, "sum", i, b->out[i], expected);
      }
      break;
    }
    case ALLTOALL:
      for (int r = 0; r < b->size; ++r)
        for (int i = 0; i < b->block; ++i) {
          unsigned char got = b->a2a_in[(size_t)r * (size_t)b->block + (size_t)i];
          if (got != pattern(seed, r, b->rank, i))
            fail(b, name, "block byte (from rank = element / block)", (long)r * b->block + i, got,
                 pattern(seed, r, b->rank, i));
        }
      break;
  }
}

/* `iters` calls of the case; returns the seconds they took on this rank. */
static double run(struct bench *b, const struct bcase *c, long iters) {
  double t0 = MPI_Wtime();
  switch (c->kind) {
    case BARRIER:
      for (long k = 0; k < iters; ++k) MPI_Barrier(MPI_COMM_WORLD);
      break;
    case BCAST:
      for (long k = 0; k < iters; ++k) MPI_Bcast(b->bytes, c->count, MPI_BYTE, 0, MPI_COMM_WORLD);
      break;
    case ALLREDUCE:
      for (long k = 0; k < iters; ++k) MPI_Allreduce(b->in, b->out, c->count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      break;
    case ALLTOALL:
      for (long k = 0; k < iters; ++k)
        MPI_Alltoall(b->a2a_out, b->block, MPI_BYTE, b->a2a_in, b->block, MPI_BYTE, MPI_COMM_WORLD);
      break;
  }
  return MPI_Wtime() - t0;
}

/* The iteration count for the timed loop, the same on every rank. */
static long calibrate(struct bench *b, const struct bcase *c) {
  if (b->fixed_iters > 0) return b->fixed_iters;
  long iters = 1, result = 0;
  for (;;) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = run(b, c, iters);
    if (b->rank == 0) {
      if (t >= b->target_s / 10.0 || iters >= (1L << 30)) {
        double per_call = t / (double)iters;
        double n = per_call > 0 ? b->target_s / per_call : (double)(1L << 30);
        result = n < 3 ? 3 : n > (double)(1L << 30) ? (1L << 30) : (long)n;
      } else {
        result = 0;
      }
    }
    MPI_Bcast(&result, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (result > 0) return result;
    iters *= 2;
  }
}

static void run_case(struct bench *b, const struct bcase *c) {
  char name[64], sz[32];
  switch (c->kind) {
    case BARRIER:
      snprintf(name, sizeof name, "barrier");
      break;
    case BCAST:
      size_name(sz, sizeof sz, c->count);
      snprintf(name, sizeof name, "bcast_%s", sz);
      break;
    case ALLREDUCE:
      size_name(sz, sizeof sz, (long)c->count * (long)sizeof(double));
      snprintf(name, sizeof name, "allreduce_%s", sz);
      break;
    case ALLTOALL:
      size_name(sz, sizeof sz, b->block);
      snprintf(name, sizeof name, "alltoall_%s", sz);
      break;
  }

  /* warm-up, checked */
  fill(b, c, 1);
  run(b, c, 2);
  check(b, c, name, 1);

  long iters = calibrate(b, c);

  /* the timed loop, checked after */
  fill(b, c, 2);
  MPI_Barrier(MPI_COMM_WORLD);
  double t = run(b, c, iters);
  MPI_Barrier(MPI_COMM_WORLD);
  check(b, c, name, 2);

  double us = t / (double)iters * 1e6, max_us = 0;
  MPI_Reduce(&us, &max_us, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (b->rank == 0) {
    printf("%s,%d,%.3f\n", name, b->size, max_us);
    fflush(stdout);
    if (b->verbose) fprintf(stderr, "coll_bench: %s: %ld iterations, %.3f s on rank 0\n", name, iters, t);
  }
}

static int usage(int rank, const char *msg) {
  if (rank == 0)
    fprintf(stderr,
            "coll_bench: %s\nusage: coll_bench [-c CASES] [-t SECONDS] [-n ITERS] [-b BLOCK] [-v]\n"
            "  CASES: comma-separated, from barrier,bcast8,bcast1m,allreduce8,allreduce1m,alltoall\n",
            msg);
  MPI_Finalize();
  return 1;
}

int main(int argc, char **argv) {
  struct bench b;
  memset(&b, 0, sizeof b);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &b.size);
  b.target_s = 0.3;
  b.block = 1024;

  int selected[kNumCases], nselected = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-v")) {
      b.verbose = 1;
    } else if (i + 1 < argc && !strcmp(a, "-t")) {
      b.target_s = strtod(argv[++i], NULL);
      if (!(b.target_s > 0 && b.target_s < 3600)) return usage(b.rank, "-t needs seconds > 0");
    } else if (i + 1 < argc && !strcmp(a, "-n")) {
      b.fixed_iters = strtol(argv[++i], NULL, 10);
      if (b.fixed_iters < 1) return usage(b.rank, "-n needs a count >= 1");
    } else if (i + 1 < argc && !strcmp(a, "-b")) {
      long v = strtol(argv[++i], NULL, 10);
      if (v < 1 || v > (1L << 24)) return usage(b.rank, "-b needs bytes from 1 to 16 MiB");
      b.block = (int)v;
    } else if (i + 1 < argc && !strcmp(a, "-c")) {
      for (const char *p = argv[++i]; *p;) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int k = 0; k < kNumCases; ++k)
          if (strlen(kCases[k].option) == len && !strncmp(p, kCases[k].option, len)) found = k;
        for (int k = 0; k < nselected; ++k)
          if (selected[k] == found) found = -1;
        if (found < 0) return usage(b.rank, "unknown or repeated case in -c");
        selected[nselected++] = found;
        p += len;
        if (*p == ',') ++p;
      }
    } else {
      return usage(b.rank, "unknown option");
    }
  }
  if (nselected == 0)
    for (int k = 0; k < kNumCases; ++k) selected[nselected++] = k;

  b.bytes = malloc(kBcastBig);
  b.in = malloc(sizeof(double) * kAllreduceBig);
  b.out = malloc(sizeof(double) * kAllreduceBig);
  b.a2a_in = malloc((size_t)b.size * (size_t)b.block);
  b.a2a_out = malloc((size_t)b.size * (size_t)b.block);
  if (!b.bytes || !b.in || !b.out || !b.a2a_in || !b.a2a_out) {
    fprintf(stderr, "coll_bench: rank %d: out of memory\n", b.rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  if (b.rank == 0) {
    printf("# coll_bench: %d ranks, alltoall block %d B per pair, %s\n", b.size, b.block,
           b.fixed_iters > 0 ? "fixed iteration count" : "calibrated iteration count");
    printf("# case,ranks,usec_per_call\n");
    fflush(stdout);
  }
  for (int k = 0; k < nselected; ++k) run_case(&b, &kCases[selected[k]]);

  free(b.a2a_out);
  free(b.a2a_in);
  free(b.out);
  free(b.in);
  free(b.bytes);
  MPI_Finalize();
  return 0;
}
