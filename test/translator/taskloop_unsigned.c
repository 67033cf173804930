// A taskloop whose condition compares in an unsigned type counts its
// iterations as C does, in that type: a reverse loop down to (unsigned)-1
// with !=, an int variable compared with an unsigned bound (C converts the
// int: -3 < 4u is false), a 64-bit range across INT64_MAX. (The counts
// were computed in long long: 0, 7 and 0 iterations instead of 5, 0, 3.)
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | count 0
// RUN: %tucanacc --no-translate -Wall -Wextra -Werror -Wno-sign-compare -c %t.c -o %t.o
// RUN: %cc -Wno-unknown-pragmas %s -o %t.plain
// RUN: %t.plain | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucanacc %s -o %t.exe
// RUN: %tucana-run -np 1 --vf 1 --tasks 3 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %tucana-run -np 1 --workers 2 --vf 1 --tasks 2 %t.exe | FileCheck %s --check-prefix=OUT --match-full-lines

#include <stdint.h>
#include <stdio.h>

static long slot[16];

static long count_and_clear(void) {
  long c = 0;
  for (int k = 0; k < 16; k++) c += slot[k], slot[k] = 0;
  return c;
}

int main(void) {
  unsigned n = 5, un = 4;
  long reverse, mixed, wide;
#pragma tucana taskloop num_tasks(2)
  for (unsigned i = n - 1; i != (unsigned)-1; i--) slot[i] = 1;
  reverse = count_and_clear();
#pragma tucana taskloop
  for (int i = -3; i < un; i++) slot[i + 8] = 1;
  mixed = count_and_clear();
  uint64_t lo = (uint64_t)INT64_MAX - 1, hi = (uint64_t)INT64_MAX + 2;
#pragma tucana taskloop
  for (uint64_t x = lo; x < hi; x++) slot[x - lo] = 1;
  wide = count_and_clear();
  printf("reverse %ld mixed %ld wide %ld\n", reverse, mixed, wide);
  return 0;
}
// OUT: reverse 5 mixed 0 wide 3
