// Control flow that stays inside a region is accepted (diag_control_flow_out.c
// shows what is not): a goto to a label of the same region, 'return' in a
// lambda or in a member function of a local class (they are functions of
// their own), 'break' and 'continue' of a loop or switch inside the region.
// The region's code is copied as it is.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.cpp --match-full-lines
// RUN: %tucanacxx --no-translate -std=c++17 -Wall -Wextra -Werror -c %t.cpp -o %t.o

#include <algorithm>
#include <vector>

int f(std::vector<int> &v, int n) {
  int found = 0;
#pragma tucana superblock
  for (int s = 0; s < n; s++) {
    // CHECK: case 0: { /* region search */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       for (int x : v) {
    // CHECK-NEXT:         if (x == s)
    // CHECK-NEXT:           goto hit;
    // CHECK-NEXT:       }
    // CHECK-NEXT:       found -= 1;
    // CHECK-NEXT:     hit:
    // CHECK-NEXT:       found += 1;
    // CHECK-NEXT:     } tucana_sb_ran(tucana_sb0, 0); break; }
#pragma tucana region(search)
    {
      for (int x : v) {
        if (x == s)
          goto hit;
      }
      found -= 1;
    hit:
      found += 1;
    }
    // CHECK: case 1: { /* region sort */
    // CHECK-NEXT:     {
    // CHECK-NEXT:       auto cmp = [](int a, int b) { return a < b; };
    // CHECK: int twice(int x) { return 2 * x; }
    // CHECK: } tucana_sb_ran(tucana_sb0, 1); break; }
    // CHECK-NEXT:   } } tucana_sb_end(tucana_sb0); }
#pragma tucana region(sort) depends(search)
    {
      auto cmp = [](int a, int b) { return a < b; };
      std::sort(v.begin(), v.end(), cmp);
      struct local {
        int twice(int x) { return 2 * x; }
      } l;
      found += l.twice(s);
      switch (s) {
      case 0:
        break;
      default:
        for (;;) {
          if (found > 10)
            break;
          found++;
          continue;
        }
      }
      while (found > 100) {
        found /= 2;
        if (found & 1)
          continue;
      }
    }
  }
  return found;
}
