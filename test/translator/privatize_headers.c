// Globals defined and used in the program's own headers (issue 27): the
// EXTERN idiom (defined in the file with main, declared everywhere else), a
// static in a header, a header's inline function and macro using globals,
// and header code included inside a function that assigns a global defined
// in another file. tucanacc rewrites the headers into a directory of their
// own, searched first; every such global is one per subrank program-wide.
//
// RUN: rm -rf %t.headers && mkdir -p %t.headers
// RUN: %tucana-translate --headers-dir=%t.headers %s -o %t.c -- -I %S/Inputs/privatize_headers 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c
// RUN: FileCheck %s --check-prefix=HEADER --input-file=%t.headers%S/Inputs/privatize_headers/globals.h
// RUN: FileCheck %s --check-prefix=SETG --input-file=%t.headers%S/Inputs/privatize_headers/setg.h
// Without --headers-dir the translator says what stays shared.
// RUN: %tucana-translate %s -o %t.plain.c -- -I %S/Inputs/privatize_headers 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %tucanacc -Wall -Wextra -I %S/Inputs/privatize_headers %s %S/Inputs/privatize_headers/other.c -o %t.exe 2>&1 | count 0
// RUN: %tucana-run -np 1 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
#define MAIN
#include <mpi.h>
#include <stdio.h>
#include "globals.h"

extern int g;
void work(int rank);
int other_calls(void);

// CHECK: TUCANA_PRIV(nblocks) = rank;
// HEADER: #line 1 "{{.*}}globals.h"
// HEADER: EXTERN int nblocks TUCANA_PRIVATE;
// HEADER: EXTERN double total TUCANA_PRIVATE;
// HEADER: EXTERN int table[4] TUCANA_PRIVATE;
// HEADER: static int header_calls TUCANA_PRIVATE;
// HEADER: return ++TUCANA_PRIV(header_calls) + TUCANA_PRIV(nblocks);
// HEADER: #define NBLOCKS_PLUS(k) (TUCANA_PRIV(nblocks) + (k))
// SETG: TUCANA_PRIV_EXTERN(g) = 40 + rank;
// PLAIN-DAG: warning: 'nblocks' is not privatized {{.*}} it is defined in a header
// PLAIN-DAG: warning: 'g' is privatized, but this use is in a header
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  nblocks = rank;
#include "setg.h"
  work(rank);
  int b = bump();
  MPI_Barrier(MPI_COMM_WORLD);
  int errors = 0;
  errors += nblocks != rank + 100;
  errors += total != rank * 10;
  errors += g != 41 + rank;
  errors += table[rank % 4] != 1;
  errors += b != 1 + rank + 100;
  errors += header_calls != 1;   // this file's
  errors += other_calls() != 1;  // other.c's
  errors += NBLOCKS_PLUS(1) != rank + 101;
  int all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("headers: %d subranks, %d errors\n", size, all);
  MPI_Finalize();
  return 0;
}

// OUT: headers: {{[0-9]+}} subranks, 0 errors
