// A region that is an expression statement is copied with its ';', also
// when the expression ends in '}' (a compound literal in C, a braced
// initializer in C++).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -c %t.c -o %t.o

struct point {
  int x, y;
};

void f(struct point *p, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
    // CHECK:     case 0: { /* region reset */
    // CHECK: #line {{[0-9]+}} "{{.*}}"
    // CHECK-NEXT:     p[i] = (struct point){i, -i};
#pragma tucana region(reset)
    p[i] = (struct point){i, -i};
    // CHECK:     case 1: { /* region bump */
    // CHECK: #line {{[0-9]+}} "{{.*}}"
    // CHECK-NEXT:     p[i].x += (int[]){1, 2}[1];
#pragma tucana region(bump) depends(reset)
    p[i].x += (int[]){1, 2}[1];
  }
}
