// '#pragma tucana superblock' (or 'toucan superblock') applies to the next
// statement, which must be a 'for' loop: its three clauses give each region
// its iteration. A while or do loop, or a block, is an error.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

void f(double *a, int n) {
  int i = 0;
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana superblock' must be followed by a 'for' loop
#pragma tucana superblock
  while (i < n) {
    a[i] = 0;
    i++;
  }
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma toucan superblock' must be followed by a 'for' loop
#pragma toucan superblock
  do {
    a[--i] = 1;
  } while (i > 0);
  // CHECK: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana superblock' must be followed by a 'for' loop
#pragma tucana superblock
  {
    for (int j = 0; j < n; j++)
      a[j] = 2;
  }
}
