// A header included twice whose names mean a privatized global in one
// inclusion and a local variable in the other cannot have one rewritten
// copy: a precise error at the line that differs, a note at the other
// inclusion, and no output (docs/privatization.md, "Globals in the
// program's own headers").
//
// RUN: rm -rf %t.headers %t.c && mkdir -p %t.headers
// RUN: not %tucana-translate --headers-dir=%t.headers %s -o %t.c -- -I %S/Inputs/privatize_headers 2>&1 | FileCheck %s
// RUN: not test -e %t.c
#include <mpi.h>

int g;

static int with_a_local(void) {
  int g = 1, rank = 0;
// CHECK: setg.h:{{[0-9]+}}:1: error: the header '{{.*}}setg.h' is included more than once, and this line needs a different rewrite in this inclusion than in another: a name in it is a privatized global in one and something else in the other
// CHECK: privatize_headers_twice.c:[[@LINE+1]]:10: note: the other inclusion is here
#include "setg.h"
  return g;
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#include "setg.h"
  MPI_Finalize();
  return with_a_local();
}
