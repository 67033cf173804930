// A region that is an expression statement ends after its ';' (where
// tucana_sb_ran goes), also when the expression ends in '}' (a compound
// literal in C, a braced initializer in C++).
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
    // CHECK: case 0: { /* region reset */
    // CHECK-NEXT:     p[i] = (struct point){i, -i}; tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana region(reset)
    p[i] = (struct point){i, -i};
    // CHECK: case 1: { /* region bump */
    // CHECK-NEXT:     p[i].x += (int[]){1, 2}[1]; tucana_sb_ran(tucana_sb0, 1); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana region(bump) depends(reset)
    p[i].x += (int[]){1, 2}[1];
  }
}
