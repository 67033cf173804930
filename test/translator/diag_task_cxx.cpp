// C++ errors of the task pragmas: 'this' (the outlined function is at
// namespace scope), a by-value capture that is not trivially copyable (the
// runtime copies the arguments byte by byte), a structured binding, a task
// in a lambda or in a template. A lambda defined inside the task is fine.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- -std=c++17 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

#include <string>
#include <utility>

struct Solver {
  int steps = 0;
  void run() {
#pragma tucana task
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: error: 'this' cannot be used in a task (its function is outlined at namespace scope); copy what the task needs into a local (a pointer for shared access) first
    steps++;
  }
};

template <typename T>
void in_template(T v) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana task' inside a template is not supported; put the task in a non-template function
#pragma tucana task
  v++;
}

void f() {
  auto g = [](int n) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:1: error: '#pragma tucana task' inside a lambda is not supported; put the task in a function
#pragma tucana task
    n++;
  };
  g(1);
  std::string s = "x";
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: 's' has type 'std::string', which is not trivially copyable, and a task copies its captures byte by byte; name it in shared(...) or capture a pointer to it
  s += "y";
#pragma tucana task shared(s)
  s += "z";  // fine: by address
  auto [a, b] = std::pair<int, int>(1, 2);
#pragma tucana task
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: error: structured binding 'a' cannot be captured by a task; copy it into a variable first
  a += 1;
  int c = 0;
#pragma tucana task shared(c)
  c = [](int k) { return k * 2; }(3);  // fine: a lambda inside the task
}
