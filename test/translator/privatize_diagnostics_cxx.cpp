// C++ variables that cannot be privatized exactly: each is reported, naming
// it and the reason, and stays one per process.
//
// RUN: %tucana-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.cpp

#include <mpi.h>
#include <vector>

// CHECK-DAG: [[FILE]]:[[@LINE+2]]:18: warning: 'first' is not privatized (one copy is shared by all subranks of a process): its declaration declares other variables too; declare it alone
// OUT: {{^}}std::vector<int> first(2, 1), second;
std::vector<int> first(2, 1), second;
// CHECK-DAG: [[FILE]]:[[@LINE-1]]:31: warning: 'second' is not privatized {{.*}}: its declaration declares other variables too; declare it alone

// CHECK-DAG: [[FILE]]:[[@LINE+1]]:12: warning: 'shared_inline' is not privatized {{.*}}: it is an inline variable (GCC cannot privatize those); define it without 'inline' in one source file
inline int shared_inline = 0;

template <typename T>
struct Pool {
  static int created;
};
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:36: warning: 'Pool::created' is not privatized {{.*}}: it belongs to a template
template <typename T> int Pool<T>::created = 0;

int target;
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:6: warning: 'alias' is not privatized {{.*}}: it is a reference (it would keep referring to one object)
int &alias = target;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  first.push_back(shared_inline + Pool<int>::created + alias);
  // OUT: {{^}}  TUCANA_PRIV(target) = 1;
  target = 1;
  MPI_Finalize();
  return 0;
}
