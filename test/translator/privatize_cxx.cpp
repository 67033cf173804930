// Privatization in C++: class static data members, namespaces, anonymous
// namespaces, thread_local, variables with constructors and destructors
// (constructed and destroyed once per subrank, in the order the language
// defines for one program), function-local statics with dynamic
// initialization, and uses in lambdas and member functions.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.cpp
// RUN: %tucanacxx -std=c++17 -Wall -Wextra -Werror %s -o %t.exe
// RUN: %tucana-run -np 1 --workers 2 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 1 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 1 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 4 %t.exe | FileCheck %s --check-prefix=OUT
// RUN: %tucana-run -np 2 --workers 2 --vf 8 %t.exe | FileCheck %s --check-prefix=OUT
// Destructors run once per subrank at its end (each prints its own line).
// RUN: %tucana-run -np 1 --vf 3 %t.exe | FileCheck %s --check-prefix=DTOR

#include <mpi.h>
#include <cstdio>
#include <string>
#include <vector>

// CHECK: {{^}}int constructed TUCANA_PRIVATE = 0, destroyed TUCANA_PRIVATE = 0;
int constructed = 0, destroyed = 0;
int my_rank = -1;

struct Counted {
  int value;
  explicit Counted(int v) : value(v) { ++constructed; }
  ~Counted() {
    ++destroyed;
    if (value == 100) std::printf("rank %d: destroying the last of %d objects\n", my_rank, constructed);
  }
};

// CHECK: {{^}}/* tucana: 'first' is constructed once per subrank */ using tucana_type_{{[0-9]+}} = Counted; extern tucana_type_{{[0-9]+}} first __asm__("first"); alignas(tucana_type_{{[0-9]+}}) unsigned char tucana_storage_{{[0-9]+}}[sizeof(tucana_type_{{[0-9]+}})] __asm__("first") TUCANA_PRIVATE;
// CHECK-SAME: ::new (tucana_p) tucana_type_{{[0-9]+}}(100);
Counted first(100);
// The order of construction is the order of definition: `second` sees `first`.
Counted second(first.value + 1);
static std::vector<int> history;
// A ',' inside the initializer is not another declarator.
// CHECK: ::new (tucana_p) tucana_type_{{[0-9]+}}(3, 7);
std::vector<int> filled(3, 7);
namespace app {
std::string label = "app";
int hits;
namespace {
int hidden_hits;
}
}  // namespace app

struct Registry {
  static int count;
  static Counted special;
  static int inline_member;
  int bump_local() { static int in_class_calls = 0; return ++in_class_calls; }
  int bump() { return ++count; }
};
// CHECK: {{^}}int Registry::count TUCANA_PRIVATE = 0;
int Registry::count = 0;
int Registry::inline_member = 7;
Counted Registry::special{3};
// CHECK: {{^}}/* tucana: one per subrank, not per thread */ int per_thread TUCANA_PRIVATE = 5;
thread_local int per_thread = 5;
std::vector<int>* history_ptr = &history;

template <typename T>
T twice(T v) {
  return v + v + static_cast<T>(app::hits * 0);
}

// Outside function bodies too: a default argument, a default member initializer.
// CHECK: {{^}}int with_default(int v = TUCANA_PRIV(my_rank)) { return v; }
int with_default(int v = my_rank) { return v; }
struct Defaults {
  // CHECK: {{^}}  int seen = TUCANA_PRIV(my_rank);
  int seen = my_rank;
};

int calls_to_local() {
  // CHECK: /* tucana: 'local' is constructed once per subrank */ using local__tucana_type = Counted;
  static Counted local(10);
  static int calls = 0;
  ++calls;
  return ++local.value - 10 + calls * 0;
}

int check(int rank) {
  int errors = 0;
  my_rank = rank;
  history.push_back(rank);
  history_ptr->push_back(rank);
  app::label += std::to_string(rank);
  app::hits = rank;
  app::hidden_hits = rank;
  Registry r;
  for (int i = 0; i < rank; ++i) r.bump(), r.bump_local();
  Registry::special.value = rank;
  Registry::inline_member = rank;
  per_thread = rank;
  auto lambda = [&] { return first.value + second.value + app::hits; };
  for (int i = 0; i < 3; ++i) MPI_Barrier(MPI_COMM_WORLD);
  errors += my_rank != rank;
  errors += constructed != 3;  // first, second, Registry::special (then local, below)
  errors += first.value != 100 || second.value != 101;
  errors += history.size() != 2 || history[0] != rank || history[1] != rank;
  filled[0] = rank;
  MPI_Barrier(MPI_COMM_WORLD);
  errors += filled.size() != 3 || filled[0] != rank || filled[2] != 7;
  errors += app::label != "app" + std::to_string(rank);
  errors += app::hits != rank || app::hidden_hits != rank;
  errors += Registry::count != rank || Registry::special.value != rank || Registry::inline_member != rank;
  errors += per_thread != rank;
  errors += r.bump_local() != rank + 1;
  errors += lambda() != 201 + rank;
  errors += twice(rank) != 2 * rank;
  errors += with_default() != rank || Defaults().seen != rank;
  // A static local of a lambda (its operator() is inline).
  auto count_calls = [] { static int lambda_calls = 0; return ++lambda_calls; };
  for (int i = 0; i <= rank; ++i) count_calls();
  MPI_Barrier(MPI_COMM_WORLD);
  errors += count_calls() != rank + 2;
  for (int i = 1; i <= 3; ++i) {
    errors += calls_to_local() != i;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  errors += constructed != 4;
  return errors;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = check(rank), all = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("C++: %d subranks, %d errors\n", size, all);
  MPI_Finalize();
  return 0;
}

// OUT: C++: {{[0-9]+}} subranks, 0 errors
// DTOR-DAG: rank 0: destroying the last of 4 objects
// DTOR-DAG: rank 1: destroying the last of 4 objects
// DTOR-DAG: rank 2: destroying the last of 4 objects
