// What tucanacc lists at the link as shared by the subranks (issue 27): a
// variable marked '#pragma tucana shared' was asked for and is not listed;
// a name starting with __ (gfortran's module variables are __mod_MOD_x) is
// listed like any other when it is shared. And a source Clang cannot
// translate is an error when it defines variables (they would be shared
// silently), unless --privatize=no says to share them; without variables
// it is compiled as it is.
//
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %tucanacc %s -o shared_marked 2>&1 | FileCheck %s --check-prefix=MARKED --allow-empty
// MARKED-NOT: hits_of_all
// RUN: %tucanacc --privatize=no %s -o all_shared 2>&1 | FileCheck %s --check-prefix=ALL
// ALL-DAG: warning: global variable '__mod_MOD_count' ({{.*}}privatize_link_list.c) is shared by all subranks
// ALL-DAG: warning: global variable 'hits_of_all' ({{.*}}privatize_link_list.c) is shared by all subranks
// RUN: not %tucanacc -w -c %S/Inputs/untranslatable.c -o untranslatable.o 2> untranslatable.err
// RUN: FileCheck %s --check-prefix=REFUSED --input-file=untranslatable.err
// REFUSED: untranslatable.c: error: could not be translated {{.*}} its global and static variables (visits) would be shared by the subranks of a process; make it compile with Clang, or compile it with --privatize=no
// RUN: not test -e untranslatable.o
// RUN: %tucanacc -w --privatize=no -c %S/Inputs/untranslatable.c -o untranslatable.o
// RUN: %tucanacc -w -c %S/Inputs/untranslatable_no_globals.c -o no_globals.o
#include <mpi.h>
#include <stdio.h>

#pragma tucana shared
int hits_of_all;
int __mod_MOD_count;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  __atomic_fetch_add(&hits_of_all, 1, __ATOMIC_SEQ_CST);
  __mod_MOD_count++;
  MPI_Finalize();
  return 0;
}
