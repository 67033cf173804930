// The scheduling hint priority(EXPR) on a superblock and on its regions
// (receive/send/compute and named ones): higher runs first among ready
// regions; a negative priority makes the subrank yield its worker at the end
// of the region. Each iteration's body starts by setting the priorities,
// evaluated there: tucana_sb_priority(sb, -1, (E)) for the superblock's, then
// tucana_sb_priority(sb, K, (E)) for region K's, in region order. The
// expression is copied token by token.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
  // CHECK: { /* tucana: superblock priority_clause.c:{{[0-9]+}}, regions receive send compute (translated by tucana-translate) */
  // CHECK: for (int i = 0; i < n; i++) { tucana_sb_priority(tucana_sb0, -1, (n > 4 ? 1 : 0)); tucana_sb_priority(tucana_sb0, 0, (2)); tucana_sb_priority(tucana_sb0, 1, (n - i)); tucana_sb_priority(tucana_sb0, 2, (-1)); for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
  // CHECK-NEXT: case 0: { /* region receive */
#pragma tucana superblock priority(n > 4 ? 1 : 0)
  for (int i = 0; i < n; i++) {
#pragma tucana receive priority(2)
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send priority(n - i)
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana compute priority(-1)
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  // Only the regions with a clause get a call; the clause may come before
  // or after depends(...).
  // CHECK: { /* tucana: superblock priority_clause.c:{{[0-9]+}}, regions boundary interior halo (translated by tucana-translate) */
  // CHECK: for (int i = 0; i < n; i++) { tucana_sb_priority(tucana_sb1, 0, (10)); tucana_sb_priority(tucana_sb1, 2, ((a[0] > 0) * 3)); for (int tucana_sb1_r; (tucana_sb1_r = tucana_sb_next(tucana_sb1)) >= 0;) switch (tucana_sb1_r) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(boundary) depends(boundary*) priority(10)
    a[0] = i;
#pragma tucana region(interior) depends(interior*)
    a[1] = i;
#pragma tucana region(halo) priority((a[0] > 0) * 3) depends(boundary)
    a[2] = i;
  }
  // A superblock that is a { } block: the priority is set once, at its start.
  // CHECK: { /* tucana: superblock priority_clause.c:{{[0-9]+}}, regions once (translated by tucana-translate) */
  // CHECK: { tucana_sb_priority(tucana_sb2, -1, (-1)); for (int tucana_sb2_r; (tucana_sb2_r = tucana_sb_next(tucana_sb2)) >= 0;) switch (tucana_sb2_r) {
#pragma tucana superblock priority(-1)
  {
#pragma tucana region(once)
    a[3] = 0;
  }
}
