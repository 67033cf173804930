// OpenMP and privatization (issue 27), with -fopenmp as tucanacc passes it:
// a privatized global used in a parallel region is rewritten (the team's
// threads see the subrank's copy, docs/privatization.md); a clause can only
// name a variable, so a privatized global named in one is warned about
// (except private(x), whose copy is the construct's own and means the same),
// and inside a construct that gives it a copy of its own the name is that
// copy; a threadprivate variable is left as it is (a copy per thread: no
// section attribute on a thread-local) and registered at the end of the
// file, so that the runtime keeps its values per subrank and per thread
// (its name goes into tucana_threadprivate_names, which the link-time list
// of shared variables leaves out); a threadprivate static local is moved to
// file scope first.
//
// RUN: %tucana-translate %s -o %t.c -- -fopenmp -idirafter %gcc-include 2>&1 | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// RUN: FileCheck %s --input-file=%t.c
// RUN: %tucanacc -fopenmp %s -o %t.exe 2>/dev/null
// RUN: env OMP_NUM_THREADS=2 %tucana-run -np 1 --vf 3 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: env OMP_NUM_THREADS=2 %tucana-run -np 2 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
#include <mpi.h>
#include <stdio.h>

// CHECK: int g TUCANA_PRIVATE;
int g;
// CHECK: int scratch TUCANA_PRIVATE;
int scratch;
// CHECK: {{^}}int tp;
int tp;
#pragma omp threadprivate(tp)

// A threadprivate static local moves to file scope under a name of its own
// (the directive needs a line of its own; #line keeps the numbering):
// CHECK: {{^}}/* tucana: threadprivate static 'calls', at file scope */ static int tucana_count_calls_calls_[[OFF:[0-9]+]] = 7;
// CHECK-NEXT: {{^}}#pragma omp threadprivate(tucana_count_calls_calls_[[OFF]])
// CHECK-NEXT: {{^}}#line [[@LINE+1]]
int count_calls(void) {
  // CHECK: {{^}}  /* tucana: threadprivate static 'calls' is tucana_count_calls_calls_[[OFF]] */
  static int calls = 7;
  // CHECK: {{^}}/* tucana: its threadprivate directive is at file scope */
#pragma omp threadprivate(calls)
  // CHECK: return ++tucana_count_calls_calls_[[OFF]];
  return ++calls;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g = rank;
  int sum = 0;
// CHECK: #pragma omp parallel for reduction(+:sum)
// CHECK-NEXT: for (int i = 0; i < 100; i++) sum += TUCANA_PRIV(g);
#pragma omp parallel for reduction(+:sum)
  for (int i = 0; i < 100; i++) sum += g;
// CHECK: #pragma omp parallel for private(scratch) reduction(+:sum)
// CHECK-NEXT: for (int i = 0; i < 10; i++) { scratch = i; sum += scratch; }
#pragma omp parallel for private(scratch) reduction(+:sum)
  for (int i = 0; i < 10; i++) { scratch = i; sum += scratch; }
  int local = g;
// WARN: [[@LINE+2]]:{{[0-9]+}}: warning: 'g' is privatized, but this use is in a '#pragma' clause
// CHECK: #pragma omp parallel for firstprivate(g) reduction(+:local)
#pragma omp parallel for firstprivate(g) reduction(+:local)
  for (int i = 0; i < 2; i++) local += 0 * g;
  MPI_Barrier(MPI_COMM_WORLD);
  int errors = (sum != 100 * rank + 45) + (g != rank) + (local != rank), all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("openmp: %d subranks, %d errors\n", size, all);
  MPI_Finalize();
  return 0;
}

// WARN: 1 warning generated.
// OUT: openmp: {{[0-9]+}} subranks, 0 errors

// The registration, after everything:
// CHECK: {{^}}static const char tucana_names_threadprivate[] __attribute__((section("tucana_threadprivate_names"), used)) = "tp\0tucana_count_calls_calls_[[OFF]]\0";
// CHECK: {{^}}/* tucana: threadprivate 'tp' is kept per subrank and per thread */ static void *tucana_threadprivate_address_0(void) { return (void *)&tp; } __attribute__((constructor)) static void tucana_threadprivate_register_0(void) { tucana_priv_threadprivate(&tucana_threadprivate_address_0, sizeof tp); }
