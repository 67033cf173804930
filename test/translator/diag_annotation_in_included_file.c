// tucana-translate rewrites only the source file it is given: an annotation
// in an included file would be silently lost, so it is an error, once per
// header (at its first annotation; the others would only repeat it).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DHEADER=%S/Inputs/annotated_header.h --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

// CHECK: [[HEADER]]:3:1: error: '#pragma tucana superblock' in an included file is not translated (tucana-translate rewrites only the source file it is given); move the annotated code into a source file
#include "Inputs/annotated_header.h"

void f(double *a) {
  helper(a, 3);
  helper_block(a);
}
