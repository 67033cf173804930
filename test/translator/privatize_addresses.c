// Privatized values that reach the program other than by a variable's name
// (issue 27): the size of a variable-length array read from a global, a
// constant pointer holding a privatized variable's address, a file-scope
// compound literal, and a function Clang 16 sees only through an implicit
// declaration (GCC 12 warns; Clang would refuse the file, which then was not
// translated and kept its globals shared). Each subrank writes values of its
// own, lets the others run (MPI calls that yield), and checks that it still
// sees its own.
//
// RUN: %tucana-translate %s -o %t.c -- -w 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c
// RUN: %tucanacc -w %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
#include <mpi.h>
#include <stdio.h>

// CHECK: int n TUCANA_PRIVATE = 2;
int n = 2;
// CHECK: static int counter TUCANA_PRIVATE;
static int counter;
// A constant: it stays one object, but each read adds the subrank's delta.
// CHECK: static int *const cp = &counter;
static int *const cp = &counter;
// CHECK: static __typeof__((int[]){0, 0}) tucana_literal_{{[0-9]+}} TUCANA_PRIVATE = {0, 0}; static int *lit TUCANA_PRIVATE = tucana_literal_{{[0-9]+}};
static int *lit = (int[]){0, 0};
// A constant compound literal stays one object.
// CHECK: static const int *fixed TUCANA_PRIVATE = (const int[]){7, 8};
static const int *fixed = (const int[]){7, 8};
static int calls;
// weak and alias: the same variable as any other.
// CHECK: int weak_counter __attribute__((weak)) TUCANA_PRIVATE;
int weak_counter __attribute__((weak));
int base_counter;
extern int alias_counter __attribute__((alias("base_counter")));

static int check(int rank) {
  int errors = 0;
  n = 1000 + rank;
  // CHECK: double work[TUCANA_PRIV(n) + 2];
  double work[n + 2];
  // CHECK: int sizes = sizeof(double[TUCANA_PRIV(n)]) / sizeof(double);
  int sizes = sizeof(double[n]) / sizeof(double);
  // CHECK: (*((__typeof__(cp))tucana_priv_extern(cp))) += rank + 1;
  (*cp) += rank + 1;
  lit[1] += rank + 1;
  // CHECK: note_call();
  note_call();
  weak_counter += rank + 1;
  alias_counter += rank + 1;
  work[n + 1] = rank;
  MPI_Barrier(MPI_COMM_WORLD);
  errors += sizeof(work) / sizeof(double) != (size_t)(1002 + rank);
  errors += sizes != 1000 + rank;
  errors += counter != rank + 1;
  errors += *cp != rank + 1;
  errors += lit[1] != rank + 1 || lit[0] != 0;
  errors += calls != 1;
  errors += fixed[1] != 8;
  errors += work[n + 1] != rank;
  errors += weak_counter != rank + 1;
  errors += base_counter != rank + 1;
  return errors;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = check(rank), all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("addresses: %d subranks, %d errors\n", size, all);
  MPI_Finalize();
  return 0;
}

// Old-style C: an implicit declaration above, implicit int here.
note_call() { calls++; }

// OUT: addresses: {{[0-9]+}} subranks, 0 errors
