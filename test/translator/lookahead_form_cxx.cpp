// The lookahead form in C++: the loop variable is set in its own type
// before each region (a lambda capturing it by value sees the region's
// iteration); a bound captured by reference by a lambda of the body may be
// written, so that loop keeps the iteration-at-a-time form.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.cpp --match-full-lines
// RUN: %tucanacxx --no-translate -std=c++17 -Wall -Wextra -Werror -c %t.cpp -o %t.o

long twice(long n) {
  long even = 0, odd = 0;
  // CHECK: tucana_superblock *tucana_sb0 = tucana_sb_begin_ahead(&tucana_sb0_desc, tucana_sb0_trips);
  // CHECK: for (long i = n; i > 0; i--) { long long tucana_sb0_k; for (int tucana_sb0_r; (tucana_sb0_r = tucana_sb_next_ahead(tucana_sb0, &tucana_sb0_k)) >= 0;) { i = (long)(tucana_sb0_start + tucana_sb0_k * tucana_sb0_step); switch (tucana_sb0_r) {
#pragma tucana superblock
  for (long i = n; i > 0; i--) {
#pragma tucana region(even)
    {
      auto add = [i](long x) { return x + 2 * i; };
      even = add(even);
    }
#pragma tucana region(odd) depends(odd*)
    odd += i % 2;
  }
  return even + odd;
}

int bounded(int n) {
  int a = 0, b = 0;
  auto shrink = [&n] { --n; };
  // CHECK: tucana_superblock *tucana_sb1 = tucana_sb_begin(&tucana_sb1_desc);
#pragma tucana superblock
  for (int i = 0; i < n; ++i) {
#pragma tucana region(a)
    a += i;
#pragma tucana region(b)
    {
      b += 1;
      if (b == 3) shrink();
    }
  }
  return a + b;
}
