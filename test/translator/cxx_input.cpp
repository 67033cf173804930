// A C++ input: regions may hold any C++ statement (lambdas, std::vector,
// range-for loops, templates); the translation is the same as for C and
// compiles as C++ with tucanacxx.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.cpp --match-full-lines -DFILE=%s
// RUN: %tucanacxx --no-translate -std=c++17 -Wall -Wextra -Werror -c %t.cpp -o %t.o
// RUN: %tucanacxx -std=c++17 %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <vector>

// The runtime's header goes before main, the first function with a
// superblock (after the template).
// CHECK: template <typename T>
// CHECK: #include <tucana/superblock.h>
// CHECK-NEXT: #line [[@LINE+7]] "[[FILE]]"
// CHECK-NEXT: int main(int argc, char **argv) {
template <typename T>
static T total(const std::vector<T> &v) {
  return std::accumulate(v.begin(), v.end(), T{});
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  std::vector<double> inbox(3), outbox(3), history;
  std::vector<MPI_Request> req(2);

  // CHECK: { /* tucana: superblock cxx_input.cpp:[[#SB:@LINE+3]], regions receive send compute (translated by tucana-translate) */
  // CHECK: #line [[#SB+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int step = 0; step < 4; ++step) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma tucana superblock
  for (int step = 0; step < 4; ++step) {
    // CHECK: case 0: { /* region receive */
    // CHECK-NEXT:     MPI_Irecv(inbox.data(), static_cast<int>(inbox.size()), MPI_DOUBLE, left, step, MPI_COMM_WORLD,
    // CHECK-NEXT:               &req[0]); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana receive
    MPI_Irecv(inbox.data(), static_cast<int>(inbox.size()), MPI_DOUBLE, left, step, MPI_COMM_WORLD,
              &req[0]);
    // A lambda in a region: its own 'return' is not a return from the region.
    // CHECK: case 1: { /* region send */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       auto value = [&](int i) -> double { return 100.0 * rank + 10.0 * step + i; };
#pragma tucana send
    {
      auto value = [&](int i) -> double { return 100.0 * rank + 10.0 * step + i; };
      for (auto &x : outbox)
        x = value(static_cast<int>(&x - outbox.data()));
      MPI_Isend(outbox.data(), static_cast<int>(outbox.size()), MPI_DOUBLE, right, step,
                MPI_COMM_WORLD, &req[1]);
    }
    // CHECK: } tucana_sb_ran(tucana_sb0, 1); break; }
    // CHECK: case 2: { /* region compute */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Waitall(2, req.data(), MPI_STATUSES_IGNORE);
    // CHECK-NEXT:       history.push_back(total(inbox));
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 2); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana compute
    {
      MPI_Waitall(2, req.data(), MPI_STATUSES_IGNORE);
      history.push_back(total(inbox));
    }
  }

  std::printf("rank %d:", rank);
  for (double h : history)
    std::printf(" %g", h);
  std::printf("\n");
  MPI_Finalize();
  return 0;
}

// Rank r gets 100 * left + 10 * step + {0, 1, 2} in each step.
// OUT-DAG: rank 0: 303 333 363 393
// OUT-DAG: rank 1: 3 33 63 93
