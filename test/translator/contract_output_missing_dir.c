// '-o' into a directory that does not exist (or onto a directory) is an
// error that names the path and the reason; nothing is created.
//
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: not %tucana-translate %s -o %t.dir/missing/out.c -- 2>&1 | FileCheck %s --check-prefix=MISSING -DOUT=%t.dir/missing/out.c --match-full-lines --implicit-check-not=error:
// MISSING: tucana-translate: error: cannot write '[[OUT]]': No such file or directory
// RUN: not %tucana-translate %s -o %t.dir -- 2>&1 | FileCheck %s --check-prefix=DIR -DOUT=%t.dir --match-full-lines --implicit-check-not=error:
// DIR: tucana-translate: error: cannot write '[[OUT]]': Is a directory
// RUN: ls -A %t.dir | count 0

#include <mpi.h>

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(only)
    a[i] = i;
  }
}
