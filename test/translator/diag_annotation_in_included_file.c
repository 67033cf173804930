// tucana-translate rewrites only the source file it is given: an annotation
// in an included file would be silently lost, so each one is an error at
// its own line in the header.
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DHEADER=%S/Inputs/annotated_header.h --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

// CHECK-DAG: [[HEADER]]:3:1: error: '#pragma tucana superblock' in an included file is not translated (tucana-translate rewrites only the source file it is given); move the annotated code into a source file
// CHECK-DAG: [[HEADER]]:5:1: error: '#pragma tucana region' in an included file is not translated (tucana-translate rewrites only the source file it is given); move the annotated code into a source file
// CHECK-DAG: [[HEADER]]:11:1: error: '#pragma bamboo receive' in an included file is not translated (tucana-translate rewrites only the source file it is given); move the annotated code into a source file
#include "Inputs/annotated_header.h"

void f(double *a) {
  helper(a, 3);
  helper_block(a);
}
