// C++ input: the same scheme compiles as C++. In the outlined function each
// capture is a reference with the variable's own name (to the task's copy,
// or to the parent's variable for shared(...)), so nothing in the moved
// text is rewritten: lambdas inside the task (capturing by copy or by
// reference), macros and nested tasks name the captures as they are. A
// reference local is captured by the value of what it refers to. The
// outlined function stays in the namespace of the enclosing function, and
// its struct names types fully qualified.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.cpp --match-full-lines -DFILE=%s
// RUN: %tucanacxx --no-translate -std=c++17 -Wall -Wextra -Werror -c %t.cpp -o %t.o
// RUN: %cc -c %mpi-flags %S/Inputs/task_fake_runtime.c -o %t.fake.o
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror %mpi-flags %t.cpp %t.fake.o -o %t.fake
// RUN: %t.fake 2>%t.log | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: FileCheck %s --check-prefix=LOG --input-file=%t.log --match-full-lines
// The same on the real runtime: four subranks on two workers, each printing
// both lines.
// RUN: %tucanacxx -std=c++17 %s -o %t.exe
// RUN: %tucana-run -np 1 --workers 2 --vf 2 %t.exe | env LC_ALL=C sort | uniq -c | FileCheck %s --check-prefix=REAL --match-full-lines

#include <cstdio>
#include <vector>

#define SCALED(v) ((v) * factor)

namespace app {

struct Cell {
  double value;
  int id;
};

// A task inside another task (the third task pragma): its function comes
// first, since the outer one spawns it; the spawn copies the outer task's
// copies.
// CHECK: struct __tucana_task_2_args { int n; double *out; const double *data; };
// CHECK-NEXT: static void __tucana_task_2(void *__tucana_p) {
// CHECK-NEXT:   struct __tucana_task_2_args *__tucana_a = (struct __tucana_task_2_args *)__tucana_p;
// CHECK-NEXT:   int &n = __tucana_a->n;
// CHECK-NEXT:   double *&out = __tucana_a->out;
// CHECK-NEXT:   const double *&data = __tucana_a->data;
//
// CHECK: struct __tucana_task_0_args { double (*sums)[3]; app::Cell cell; double factor; int base; int k; };
// CHECK-NEXT: static void __tucana_task_0(void *__tucana_p) {
// CHECK-NEXT:   struct __tucana_task_0_args *__tucana_a = (struct __tucana_task_0_args *)__tucana_p;
// CHECK-NEXT:   double (&sums)[3] = *__tucana_a->sums;
// CHECK-NEXT:   app::Cell &cell = __tucana_a->cell;
// CHECK-NEXT:   double &factor = __tucana_a->factor;
// CHECK-NEXT:   int &base = __tucana_a->base;
// CHECK-NEXT:   int &k = __tucana_a->k;
// CHECK-NEXT: #line [[#]] "[[FILE]]"
// CHECK-NEXT:   {
// CHECK-NEXT:     auto add = [&](int i) { sums[i] += SCALED(cell.value) + base + k; };
// CHECK-NEXT:     auto copy = [=]() { return base * 10; };
//
// CHECK: struct __tucana_task_1_args { const double *p; int n; double *out; };
// CHECK: {{^}}{ struct __tucana_task_2_args __tucana_args; __tucana_args.n = n; __tucana_args.out = out; __tucana_args.data = data; {{.*}}
//
// CHECK: #line [[#@LINE+1]] "[[FILE]]"
void run(const std::vector<double>& data, double* out) {
  double sums[3] = {0, 0, 0};
  int base = 1;
  int count = 2;
  int& k = count;  // captured: the value of count at the spawn
  double factor = 0.5;
  Cell cell{4.0, 7};
  const double* p = data.data();
  int n = static_cast<int>(data.size());
  // CHECK: {{^}}{ struct __tucana_task_0_args __tucana_args; __tucana_args.sums = &sums; __builtin_memcpy((void *)&__tucana_args.cell, (const void *)__builtin_addressof(cell), sizeof __tucana_args.cell); __tucana_args.factor = factor; __tucana_args.base = base; __tucana_args.k = k; tucana_task_attr __tucana_attr = TUCANA_TASK_ATTR_INIT; __tucana_attr.name = "cells"; tucana_task_spawn(__tucana_task_0, &__tucana_args, sizeof __tucana_args, &__tucana_attr); }
#pragma tucana task shared(sums) name("cells")
  {
    auto add = [&](int i) { sums[i] += SCALED(cell.value) + base + k; };
    auto copy = [=]() { return base * 10; };
    for (int i = 0; i < 3; ++i) add(i);
    sums[0] += copy();
  }
  base = 100;  // after the spawn: not seen by the task
  count = 100;
  cell.value = 0;
#pragma tucana taskwait
  std::printf("sums %g %g %g\n", sums[0], sums[1], sums[2]);

#pragma tucana task depend(out: out[0])
  {
    const double* data = p;
#pragma tucana task
    for (int i = 0; i < n; ++i) out[i] = 2 * data[i];
  }
#pragma tucana taskwait
  std::printf("out %g %g\n", out[0], out[1]);
}

}  // namespace app

int main() {
  std::vector<double> data{1.5, 2.5};
  double out[2] = {0, 0};
  app::run(data, out);
  return 0;
}

// OUT: sums 15 5 5
// OUT-NEXT: out 3 5
// LOG: spawn name=cells priority=0 boundary=0 ndeps=0
// LOG-NEXT: spawn name=- priority=0 boundary=0 ndeps=1 out
// LOG-NEXT: spawn name=- priority=0 boundary=0 ndeps=0
// REAL: 4 out 3 5
// REAL-NEXT: 4 sums 15 5 5
// REAL-NOT: {{.}}
