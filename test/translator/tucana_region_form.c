// The explicit graph in Tucana's spelling: '#pragma tucana superblock' on the
// loop and '#pragma tucana region(NAME) depends(...)' on each region.
// depends(x) = region x of the same iteration, depends(x*) = region x of the
// previous iteration; depends() and no depends clause both mean no
// dependency. A region may depend on its own previous iteration. Regions
// are numbered in source order and a dependency names a region by number:
// {region, previous}. Named regions are TUCANA_REGION_OTHER whatever their role.
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=%s
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o
// The translation of C is also valid C++:
// RUN: %cxx -x c++ -fsyntax-only -Wall -Wextra -Werror %mpi-flags %t.c

#include <mpi.h>

void relax(double *u, double *halo, int n, int iters, int east, int west) {
  MPI_Request req[4];
  double norm = 0.0;
  // CHECK: { /* tucana: superblock tucana_region_form.c:[[#SB:@LINE+19]], regions receive_east receive_west pack send_east send_west inner norm (translated by tucana-translate) */
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_2[] = {{[{][{]}}5, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_3[] = {{[{][{]}}2, 0}, {3, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_4[] = {{[{][{]}}2, 0}, {4, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_5[] = {{[{][{]}}0, 0}, {1, 0}, {5, 1}};
  // CHECK-NEXT:   static const tucana_dependency tucana_sb0_deps_6[] = {{[{][{]}}5, 0}, {3, 0}, {4, 0}};
  // CHECK-NEXT:   static const tucana_region_desc tucana_sb0_regions[] = {
  // CHECK-NEXT:       {"receive_east", TUCANA_REGION_OTHER, 0, (const tucana_dependency *)0},
  // CHECK-NEXT:       {"receive_west", TUCANA_REGION_OTHER, 0, (const tucana_dependency *)0},
  // CHECK-NEXT:       {"pack", TUCANA_REGION_OTHER, 1, tucana_sb0_deps_2},
  // CHECK-NEXT:       {"send_east", TUCANA_REGION_OTHER, 2, tucana_sb0_deps_3},
  // CHECK-NEXT:       {"send_west", TUCANA_REGION_OTHER, 2, tucana_sb0_deps_4},
  // CHECK-NEXT:       {"inner", TUCANA_REGION_OTHER, 3, tucana_sb0_deps_5},
  // CHECK-NEXT:       {"norm", TUCANA_REGION_OTHER, 3, tucana_sb0_deps_6},
  // CHECK-NEXT:   };
  // CHECK-NEXT:   static const tucana_superblock_desc tucana_sb0_desc = {"tucana_region_form.c:[[#SB]]", 7, tucana_sb0_regions};
  // CHECK-NEXT:   tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#SB+1]] "[[FILE]]"
  // CHECK-NEXT:   for (int k = 0; k < iters; k++) { for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next(tucana_sb0)) >= 0;) switch (tucana_sb0_r) {
#pragma tucana superblock
  for (int k = 0; k < iters; k++) {
    // receive_east and receive_west: depends() and no clause, no table.
    // pack: {inner, previous}.
    // send_east, send_west: {pack, same}, {themselves, previous}.
    // inner: {receive_east, same}, {receive_west, same}, {inner, previous}.
    // norm: {inner, same}, {send_east, same}, {send_west, same}.
    // CHECK: case 0: { /* region receive_east */
    // CHECK-NEXT:     MPI_Irecv(&halo[0], 1, MPI_DOUBLE, east, 0, MPI_COMM_WORLD, &req[0]); tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana region(receive_east) depends()
    MPI_Irecv(&halo[0], 1, MPI_DOUBLE, east, 0, MPI_COMM_WORLD, &req[0]);
#pragma tucana region(receive_west)
    MPI_Irecv(&halo[1], 1, MPI_DOUBLE, west, 0, MPI_COMM_WORLD, &req[1]);
#pragma tucana region(pack) depends(inner*)
    halo[2] = u[0], halo[3] = u[n - 1];
#pragma tucana region(send_east) depends(pack, send_east*)
    MPI_Isend(&halo[3], 1, MPI_DOUBLE, east, 0, MPI_COMM_WORLD, &req[2]);
#pragma tucana region(send_west) depends(pack, send_west*)
    MPI_Isend(&halo[2], 1, MPI_DOUBLE, west, 0, MPI_COMM_WORLD, &req[3]);
    // A region that is a loop ends after the loop's last statement.
    // CHECK: case 5: { /* region inner */
    // CHECK-NEXT:     for (int i = 1; i < n - 1; i++)
    // CHECK-NEXT:       u[i] = 0.5 * (u[i - 1] + u[i + 1]); tucana_sb_ran(tucana_sb0, 5); break; }
#pragma tucana region(inner) depends(receive_east, receive_west, inner*)
    for (int i = 1; i < n - 1; i++)
      u[i] = 0.5 * (u[i - 1] + u[i + 1]);
    // CHECK: case 6: { /* region norm */
    // CHECK-NEXT:     norm += u[0] * u[0]; tucana_sb_ran(tucana_sb0, 6); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana region(norm) depends(inner, send_east, send_west)
    norm += u[0] * u[0];
  }
  (void)norm;
}
