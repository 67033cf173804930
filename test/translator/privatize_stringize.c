// A privatized global passed to a macro that also turns the argument into a
// string (#) is rewritten in the argument's text, so the string would read
// TUCANA_PRIV(counter): a warning that says so and what to do, never a
// silent change of the program's output (also through another macro, and
// with the string in pieces). A macro that only computes with its argument,
// or one that only makes a string of it, gets none, nor does a string that
// another macro made of the name in the same call (the workaround).
//
// RUN: %tucana-translate %s -o %t.c -- 2>&1 | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// RUN: FileCheck %s --input-file=%t.c
#include <mpi.h>
#include <stdio.h>

#define SHOW(v) printf(#v " = %d\n", v)
#define LOG(x) SHOW(x)
#define SHOW_IN_PIECES(v) printf("value of " #v ": %d\n", v)
#define TWICE(v) ((v) * 2)
#define STR(x) #x
#define SHOW_AS(name, v) printf(name " = %d\n", v)

int counter, logged, pieces, other;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  counter = logged = pieces = other = 3;
// WARN: [[@LINE+2]]:8: warning: 'counter' is privatized, but the macro this use is passed to also turns it into a string (#), which then reads 'TUCANA_PRIV(counter)' instead of 'counter': pass the name to the macro once more
// CHECK: SHOW(TUCANA_PRIV(counter));
  SHOW(counter);
// WARN: [[@LINE+1]]:7: warning: 'logged' is privatized, but the macro this use is passed to also turns it into a string
  LOG(logged);
// WARN: [[@LINE+1]]:18: warning: 'pieces' is privatized, but the macro this use is passed to also turns it into a string
  SHOW_IN_PIECES(pieces);
// CHECK: int t = TWICE(TUCANA_PRIV(other));
  int t = TWICE(other);
// CHECK: puts(STR(other));
  puts(STR(other));
// CHECK: SHOW_AS(STR(other), TUCANA_PRIV(other));
  SHOW_AS(STR(other), other);
  MPI_Finalize();
  return t == 6 ? 0 : 1;
}
// WARN: 3 warnings generated.
