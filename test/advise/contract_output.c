// The output is never the input (by any spelling), and nothing is written
// when the input does not compile. Bad usage is an error with the usage.
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/in.c
// RUN: not %tucana-cco rewrite --mpi %t.dir/in.c -o %t.dir/./in.c -- 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: tucana-cco: error: refusing to write the output over the input file
// RUN: diff %s %t.dir/in.c
// RUN: not %tucana-cco rewrite %t.dir/in.c -o %t.dir/out.c -- 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: tucana-cco: error: rewrite needs --mpi or --tucana
// RUN: not %tucana-cco check %t.dir/in.c -- -DBROKEN 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: in.c:[[@LINE+5]]:3: error: use of undeclared identifier 'broken'
// RUN: not %tucana-cco rewrite --mpi %t.dir/in.c -o %t.dir/out.c -- -DBROKEN
// RUN: not test -e %t.dir/out.c
void f(void) {
#ifdef BROKEN
  broken;
#endif
}
