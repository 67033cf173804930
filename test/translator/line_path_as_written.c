// The '#line' directives name the input exactly as it was given on the
// command line (relative paths stay relative, so that the compiler's
// messages name the file as the user does); the superblock's "where" in its
// descriptor is the file's name alone.
//
// RUN: cd %S && %tucana-translate line_path_as_written.c -o %t.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.c --match-full-lines -DFILE=line_path_as_written.c
// RUN: cd %S/.. && %tucana-translate ./translator/line_path_as_written.c -o %t.sub.c -- 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.sub.c --match-full-lines -DFILE=./translator/line_path_as_written.c

// CHECK: #include <tucana/superblock.h>
// CHECK-NEXT: #line [[@LINE+2]] "[[FILE]]"
// CHECK-NEXT: void f(double *a, int n) {
void f(double *a, int n) {
  // CHECK: static const tucana_superblock_desc tucana_sb0_desc = {"line_path_as_written.c:[[#SB:@LINE+3]]", 1, tucana_sb0_regions};
  // CHECK-NEXT: tucana_superblock *tucana_sb0 = tucana_sb_begin(&tucana_sb0_desc);
  // CHECK-NEXT: #line [[#SB+1]] "[[FILE]]"
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(only)
    a[i] = 0;
  }
}
