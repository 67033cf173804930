// A C++ range 'for' as a superblock: the header stays as written (the range
// is evaluated once, the element is declared by the loop itself), so a
// region sees the element of its iteration.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.cpp --match-full-lines -DFILE=%s
// RUN: %tucanacxx --no-translate -std=c++17 -Wall -Wextra -Werror -c %t.cpp -o %t.o

#include <mpi.h>

#include <vector>

double sum_neighbours(std::vector<double> &cells, int peer) {
  double total = 0.0, got = 0.0;
  MPI_Request req[2];
  // CHECK: { /* tucana: superblock cxx_range_for.cpp:[[#SB:@LINE+4]], regions receive send compute (translated by tucana-translate) */
  // CHECK: #line [[#SB+1]] "[[FILE]]"
  // CHECK-NEXT:   for (double &cell : cells) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
  // CHECK-NEXT: case 0: { /* region receive */
#pragma tucana superblock
  for (double &cell : cells) {
#pragma tucana receive
    MPI_Irecv(&got, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send
    MPI_Isend(&cell, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
    // CHECK: case 2: { /* region compute */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    // CHECK-NEXT:       total += got + cell;
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 2); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana compute
    {
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      total += got + cell;
    }
  }
  // MATE on a range 'for' over an array.
  double halo[4] = {0, 1, 2, 3};
  // CHECK: { /* tucana: superblock cxx_range_for.cpp:[[#SB1:@LINE+3]], regions scale (translated by tucana-translate) */
  // CHECK: #line [[#SB1]] "[[FILE]]"
  // CHECK-NEXT:   for (auto &h : halo) { for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
  for (auto &h : halo) {
#pragma mate region(scale) depends(scale*)
    total += 2 * h;
  }
  return total;
}
