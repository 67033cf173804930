// Privatization of every kind of C variable of static storage duration:
// each subrank writes its rank into its globals, statics, static locals and
// thread-locals, gives the others a chance to run (MPI calls that yield),
// and checks that it still sees its own values. Constants and variables
// marked '#pragma tucana shared' stay one per process.
//
// RUN: %tucana-translate %s -o %t.c -- -I %S/Inputs 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c
// RUN: %tucanacc -I %S/Inputs -Wall -Wextra -Werror %s %S/Inputs/privatize_kinds_defs.c -o %t.exe
// RUN: %tucana-run -np 1 --workers 2 --vf 1 %t.exe 2 | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 2 %t.exe 4 | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 4 %t.exe 8 | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 8 %t.exe 16 | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 1 %t.exe 2 | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 2 %t.exe 4 | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 4 %t.exe 8 | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 8 %t.exe 16 | FileCheck %s --check-prefix=OUT
// The same program compiled with --privatize=no shares them (and says so).
// RUN: %tucanacc --privatize=no -I %S/Inputs %s %S/Inputs/privatize_kinds_defs.c -o %t.shared.exe 2>&1 | FileCheck %s --check-prefix=SHARED-WARN
// RUN: %tucana-run -np 1 --vf 4 %t.shared.exe 4 | FileCheck %s --check-prefix=SHARED-OUT

// CHECK: {{^ *}}#include <tucana/privatize.h>
// CHECK-NEXT: {{^ *}}#line 1 "{{.*}}privatize_kinds.c"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "privatize_kinds.h"

// CHECK: {{^ *}}int my_rank TUCANA_PRIVATE = -1;
int my_rank = -1;
// CHECK: {{^ *}}static int counter TUCANA_PRIVATE;
static int counter;
// CHECK: {{^ *}}int grid[4][3] TUCANA_PRIVATE, scalar TUCANA_PRIVATE = 2;
int grid[4][3], scalar = 2;
// CHECK: {{^ *}}struct point { int x, y; } origin TUCANA_PRIVATE = {1, 2};
struct point { int x, y; } origin = {1, 2};
// CHECK: {{^ *}}/* tucana: one per subrank, not per thread */ int per_thread TUCANA_PRIVATE;
__thread int per_thread;
// CHECK: {{^ *}}static /* tucana: one per subrank, not per thread */ int per_thread2 TUCANA_PRIVATE;
static _Thread_local int per_thread2;
// CHECK: {{^ *}}int (*handler)(int) TUCANA_PRIVATE;
int (*handler)(int);
// An initializer that takes the address of a privatized variable is
// recomputed per subrank, so that each subrank's pointer points to its own copy.
// CHECK: {{^ *}}int *counter_ptr TUCANA_PRIVATE = &counter; static void tucana_reinit_{{[0-9]+}}(void) { __typeof__(counter_ptr) tucana_value = &TUCANA_PRIV(counter); __builtin_memcpy(&TUCANA_PRIV(counter_ptr), &tucana_value, sizeof tucana_value); } __attribute__((constructor)) static void tucana_reinit_register_{{[0-9]+}}(void) { tucana_priv_add_init(&tucana_reinit_{{[0-9]+}}); }
int *counter_ptr = &counter;
// CHECK: {{^ *}}int *hit_ptrs[2] TUCANA_PRIVATE = {&total_hits, &scalar};
int *hit_ptrs[2] = {&total_hits, &scalar};
// CHECK-SAME: __typeof__(hit_ptrs) tucana_value = {&TUCANA_PRIV_EXTERN(total_hits), &TUCANA_PRIV(scalar)};

// Constants stay shared; so do variables marked shared.
// CHECK: {{^ *}}const int limit = 3;
const int limit = 3;
// CHECK: {{^ *}}static const char *const name = "kinds";
static const char *const name = "kinds";
// CHECK: {{^ *}}/* tucana: shared by the subranks of a process (#pragma tucana shared) */
// CHECK: {{^ *}}int process_wide = 0;
#pragma tucana shared
int process_wide = 0;
// CHECK: {{^ *}}int also_process_wide;
int also_process_wide;
#pragma tucana shared(also_process_wide)

static int square(int v) { return v * v; }

// CHECK: {{^ *}}static int bump(void) {
static int bump(void) {
  // CHECK: {{^ *}}static int calls TUCANA_PRIVATE;
  static int calls;
  // CHECK: {{^ *}}static int *last TUCANA_PRIVATE = &calls; static char tucana_reinit_done_{{[0-9]+}} TUCANA_PRIVATE; if (!TUCANA_PRIV(tucana_reinit_done_{{[0-9]+}})) {
  static int *last = &calls;
  // CHECK: {{^ *}}return ++*TUCANA_PRIV(last);
  return ++*last;
}

#define TWICE(x) ((x) + (x))
// CHECK: {{^ *}}#define COUNTER_PLUS(n) (TUCANA_PRIV(counter) + (n))
#define COUNTER_PLUS(n) (counter + (n))

// Writes `rank` everywhere, yields, and counts what no longer holds it.
static int check(int rank, MPI_Comm comm) {
  int errors = 0;
  // CHECK: {{^ *}}TUCANA_PRIV(my_rank) = rank;
  my_rank = rank;
  counter = rank;
  grid[rank % 4][1] = rank;
  scalar = rank;
  origin.y = rank;
  per_thread = rank;
  per_thread2 = rank;
  handler = square;
  // A declared-only global: privatized because its definition is.
  // CHECK: {{^ *}}TUCANA_PRIV_EXTERN(total_hits) = rank;
  total_hits = rank;
  samples[rank % 8] = rank;
  for (int i = 0; i < 3; ++i) {
    MPI_Barrier(comm);
    int token = rank, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, 0, 0, &got, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  }
  errors += my_rank != rank;
  errors += counter != rank;
  // sizeof does not evaluate its operand: it stays as written.
  // CHECK: {{^ *}}errors += sizeof(counter) != sizeof(int);
  errors += sizeof(counter) != sizeof(int);
  // CHECK: {{^ *}}errors += *TUCANA_PRIV(counter_ptr) != rank;
  errors += *counter_ptr != rank;
  errors += grid[rank % 4][1] != rank;
  errors += scalar != rank;
  errors += origin.x != 1 || origin.y != rank;
  errors += per_thread != rank || per_thread2 != rank;
  errors += handler(rank) != rank * rank;
  errors += total_hits != rank;
  errors += *hit_ptrs[0] != rank || *hit_ptrs[1] != rank;
  errors += samples[rank % 8] != rank;
  // A name in a macro's argument is rewritten where it is written; a
  // macro defined in this file is rewritten in its body.
  // CHECK: {{^ *}}errors += TWICE(TUCANA_PRIV(counter)) != 2 * rank;
  errors += TWICE(counter) != 2 * rank;
  errors += COUNTER_PLUS(1) != rank + 1;
  for (int i = 0; i < 3; ++i) errors += bump() != i + 1;
  return errors;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = check(rank, MPI_COMM_WORLD);
  // Shared: every subrank of a process adds to one counter.
  MPI_Barrier(MPI_COMM_WORLD);
  // (atomically: with 2 workers two subranks may add at the same time)
  __atomic_fetch_add(&process_wide, 1, __ATOMIC_SEQ_CST);
  MPI_Barrier(MPI_COMM_WORLD);
  int local_subranks = argc > 1 ? atoi(argv[1]) : 1;  // subranks per process
  int seen = __atomic_load_n(&process_wide, __ATOMIC_SEQ_CST);
  int all_errors = 0, shared_wrong = seen != local_subranks, all_shared_wrong = 0;
  MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&shared_wrong, &all_shared_wrong, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%s: %d subranks, %d errors, shared counter wrong in %d\n", name, size, all_errors, all_shared_wrong);
  (void)limit;
  MPI_Finalize();
  return 0;
}

// OUT: kinds: {{[0-9]+}} subranks, 0 errors, shared counter wrong in 0
// SHARED-WARN-DAG: global variable 'my_rank' ({{.*}}privatize_kinds.c) is shared by all subranks of a process
// SHARED-WARN-DAG: global variable 'total_hits' ({{.*}}privatize_kinds_defs.c) is shared
// SHARED-OUT: kinds: 4 subranks, {{[1-9][0-9]*}} errors, shared counter wrong in 0
