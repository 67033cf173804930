// SPEC.md, "Annotations": Tucana's spelling has a scheduling hint,
// 'priority(expr)' (Bamboo: 'bamboo priority(n)'): higher runs first among
// ready regions; a negative priority makes the subrank yield its worker at
// the end of the region. A region with a priority clause translates, and
// the translation compiles.
//
// XFAIL: *
// BUG (missing feature): PragmaParser.cpp,
// AnnotationPragmaHandler::parse_region_clauses() and HandlePragma() accept
// no clause but depends(...), so 'priority(2)' is "unknown clause
// 'priority' in '#pragma tucana region'; expected depends(...)" and
// '#pragma tucana compute priority(-1)' is "this pragma takes no clauses".
// Nor does the runtime interface carry a priority (tucana_region_desc in
// runtime/include/tucana/superblock.h has no such field). docs/annotations.md
// documents the error (not yet implemented); diag_unknown_clause.c checks it.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

#include <mpi.h>

void f(double *a, int n, int peer) {
  MPI_Request req[2];
  // CHECK: /* tucana: superblock priority_clause.c:{{[0-9]+}}, regions receive send compute (translated by tucana-translate) */
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana receive priority(2)
    MPI_Irecv(&a[0], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana send priority(n - i)
    MPI_Isend(&a[1], 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana compute priority(-1)
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  // CHECK: /* tucana: superblock priority_clause.c:{{[0-9]+}}, regions boundary interior (translated by tucana-translate) */
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(boundary) depends(boundary*) priority(10)
    a[0] = i;
#pragma tucana region(interior) priority(0) depends(interior*)
    a[1] = i;
  }
}
