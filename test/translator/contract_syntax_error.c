// An input that is not valid C gets the compiler's own error (file, line,
// column), a non-zero exit, and no output file, even when it also has
// annotations; the translator's checks only run on a program that compiles.
//
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: not %tucana-translate %s -o %t.dir/out.c -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning:
// RUN: ls -A %t.dir | count 0

void f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana compute
    {
      // CHECK: [[FILE]]:[[@LINE+1]]:20: error: expected expression
      a[i] = 2.0 * ;
    }
    // An annotation error after it is not reported: the program must
    // compile first.
    a[i] = 0;
  }
}
