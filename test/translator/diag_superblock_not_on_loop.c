// A superblock pragma applies to the next statement, which must be a loop
// ('for', 'while', 'do', range 'for'; superblock_shapes.c) or a { } block.
// Anything else is an error at the pragma's keyword.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int c) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: '#pragma tucana superblock' must be followed by a loop ('for', 'while', 'do' or range 'for') or a { } block
#pragma tucana superblock
  if (c) {
    a[0] = 1;
  }
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: '#pragma toucan superblock' must be followed by a loop ('for', 'while', 'do' or range 'for') or a { } block
#pragma toucan superblock
  a[1] = 2;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:18: error: '#pragma tucana superblock' must be followed by a loop ('for', 'while', 'do' or range 'for') or a { } block
  #pragma tucana superblock
  switch (c) {
  default:
    a[2] = 3;
  }
}
