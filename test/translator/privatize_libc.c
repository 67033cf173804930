// libc state that MPI programs keep per rank is per subrank: getopt's
// optind/optarg/optopt and its parsing position, rand/srand, strtok, errno
// (through a call, never an address kept across a switch). Each
// subrank parses its own argv, draws from its own random sequence and
// walks its own tokens, giving the others a chance to run between calls.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c
// RUN: %tucanacc -Wall -Wextra -Werror %s -o %t.exe
// RUN: %tucana-run -np 1 --workers 2 --vf 1 %t.exe -vn 5 --name=abc extra -q | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 4 %t.exe -vn 5 --name=abc extra -q | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 8 %t.exe -vn 5 --name=abc extra -q | FileCheck %s --check-prefix=OUT

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void yield(void) { MPI_Barrier(MPI_COMM_WORLD); }

// The options, parsed one call at a time with yields in between.
static int parse(int argc, char **argv) {
  static const struct option longopts[] = {{"name", required_argument, 0, 'N'}, {0, 0, 0, 0}};
  int errors = 0, c, verbose = 0, n = 0, unknown = 0;
  const char *name = "";
  opterr = 0;  // the unknown -q is counted, not printed
  // CHECK: {{^ *}}while ((c = tucana_getopt_long(argc, argv, "vn:", longopts, NULL)) != -1) {
  while ((c = getopt_long(argc, argv, "vn:", longopts, NULL)) != -1) {
    yield();
    switch (c) {
      case 'v': verbose = 1; break;
      // CHECK: {{^ *}}case 'n': n = atoi((*tucana_priv_optarg())); break;
      case 'n': n = atoi(optarg); break;
      case 'N': name = optarg; break;
      default: unknown = optopt; break;
    }
  }
  errors += verbose != 1 || n != 5 || strcmp(name, "abc") != 0 || unknown != 'q';
  // GNU getopt moved the operand to the end: it is argv[optind].
  errors += optind != argc - 1 || strcmp(argv[optind], "extra") != 0;
  return errors;
}

static int draw(int rank) {
  int errors = 0;
  struct random_data expected;
  char state[128];
  memset(&expected, 0, sizeof expected);
  initstate_r((unsigned)rank + 1, state, sizeof state, &expected);
  // CHECK: {{^ *}}tucana_srand((unsigned)rank + 1);
  srand((unsigned)rank + 1);
  for (int i = 0; i < 5; ++i) {
    int32_t want;
    random_r(&expected, &want);
    if (rand() != want) errors++;
    yield();
  }
  return errors;
}

static int tokens(int rank) {
  char text[64];
  snprintf(text, sizeof text, "r%d,,a,b%d", rank, rank);
  char want[3][16];
  snprintf(want[0], sizeof want[0], "r%d", rank);
  snprintf(want[1], sizeof want[1], "a");
  snprintf(want[2], sizeof want[2], "b%d", rank);
  int errors = 0, k = 0;
  for (char *t = strtok(text, ","); t; t = strtok(NULL, ",")) {
    yield();
    if (k >= 3 || strcmp(t, want[k]) != 0) errors++;
    k++;
  }
  return errors + (k != 3);
}

// errno after a failed call, read through the runtime.
static int error_number(void) {
  // CHECK: {{^ *}}(*tucana_priv_errno()) = 0;
  errno = 0;
  if (close(-1) == 0) return 1;
  // CHECK: {{^ *}}return (*tucana_priv_errno()) != EBADF;
  return errno != EBADF;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int e1 = parse(argc, argv), e2 = draw(rank), e3 = tokens(rank) + error_number();
  int mine[3] = {e1, e2, e3}, all[3];
  MPI_Reduce(mine, all, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("libc: %d subranks, getopt errors %d, rand errors %d, strtok/errno errors %d\n", size, all[0], all[1], all[2]);
  MPI_Finalize();
  return 0;
}

// OUT: libc: {{[0-9]+}} subranks, getopt errors 0, rand errors 0, strtok/errno errors 0
