// What cannot be privatized exactly is reported, naming the variable and
// the reason, and stays as written (shared by the subranks of a process):
// never a silent change of meaning. The warnings show even under -w (which
// tucanacc passes for the program's own warnings).
//
// RUN: %tucana-translate %s -o %t.c -- -w -I %S/Inputs 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.c

#include <mpi.h>
#include "privatize_diag.h"

// CHECK-DAG: privatize_diag.h:3:12: warning: 'header_counter' is not privatized (one copy is shared by all subranks of a process): it is defined in a header, which tucanacc does not rewrite; define it in a source file (and declare it 'extern' in the header)
// CHECK-DAG: privatize_diag.h:5:44: warning: 'seen' is privatized, but this use is in a header, which tucanacc does not rewrite: it reads the copy shared by all subranks
int seen;

// CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: warning: 'labelled' is not privatized (one copy is shared by all subranks of a process): it has an asm label
int labelled __asm__("my_label");
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:5: warning: 'placed' is not privatized (one copy is shared by all subranks of a process): it has a section attribute of its own
int placed __attribute__((section("my_section")));
#define DECLARE(name) int name
#define PASTED(tail) se##tail
// CHECK-DAG: [[FILE]]:[[@LINE+1]]:9: warning: 'from_macro' is not privatized (one copy is shared by all subranks of a process): its declaration comes from a macro
DECLARE(from_macro);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  header_counter++;
  labelled++;
  placed++;
  from_macro++;
  // OUT: {{^}}  BUMP_SEEN();
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: warning: 'seen' is privatized, but this use comes from a macro defined in a header, which tucanacc does not rewrite
  BUMP_SEEN();
  // OUT: {{^}}  TUCANA_PRIV(seen) += read_seen();
  seen += read_seen();
  // A name made by pasting tokens has no text of its own to rewrite (it
  // used to be left as it was with no word).
  // OUT: {{^}}  PASTED(en)++;
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:3: warning: 'seen' is privatized, but this use is a name made by token pasting (##) in a macro, which tucanacc cannot rewrite: it reads the copy shared by all subranks; write the name out or pass it to the macro whole
  PASTED(en)++;
  MPI_Finalize();
  return 0;
}
