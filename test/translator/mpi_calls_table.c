// translator/include/tucana/translate/MpiCalls.def gives the role of every
// MPI function the runtime implements (runtime/include/tucana/tmpi_functions.def):
// each TMPI_FN(NAME, ...) or TMPI_FN_R(RET, NAME, ...) of the runtime has
// exactly one TUCANA_MPI_CALL(MPI_NAME, ...) line in the translator's table,
// and the table names no other function. When this test fails, the diff
// shows the names to add ('<': the runtime's) or to remove ('>': the table's).
//
// The runtime's names, and a check that every TMPI_FN line was read:
// RUN: sed -n -e 's/^TMPI_FN(\([A-Za-z0-9_]*\),.*/MPI_\1/p' -e 's/^TMPI_FN_R([^,]*, *\([A-Za-z0-9_]*\),.*/MPI_\1/p' %S/../../runtime/include/tucana/tmpi_functions.def | sort > %t.runtime
// RUN: grep -cE '^[[:space:]]*TMPI_FN(_R)?[(]' %S/../../runtime/include/tucana/tmpi_functions.def > %t.runtime.lines
// RUN: wc -l < %t.runtime | tr -d ' ' | diff - %t.runtime.lines
//
// The table's names, and a check that every TUCANA_MPI_CALL line was read:
// RUN: sed -n 's/^TUCANA_MPI_CALL(\(MPI_[A-Za-z0-9_]*\),.*/\1/p' %S/../../translator/include/tucana/translate/MpiCalls.def | sort > %t.table
// RUN: grep -cE '^[[:space:]]*TUCANA_MPI_CALL[(]' %S/../../translator/include/tucana/translate/MpiCalls.def > %t.table.lines
// RUN: wc -l < %t.table | tr -d ' ' | diff - %t.table.lines
//
// No name twice in either list, and the same names in both.
// RUN: uniq -d %t.runtime | count 0
// RUN: uniq -d %t.table | count 0
// RUN: diff %t.runtime %t.table
//
// The lists are not empty (a guard against a sed that matches nothing).
// RUN: FileCheck %s --input-file=%t.table --match-full-lines
// CHECK-DAG: MPI_Init
// CHECK-DAG: MPI_Recv
// CHECK-DAG: MPI_Wtime
