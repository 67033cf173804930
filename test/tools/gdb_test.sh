#!/usr/bin/env bash
# A debugger shows a privatized global's value for the current subrank:
# tools/tucana-gdb.py's tucana-print and $tucana_priv, at a breakpoint in
# one subrank of four (docs/privatization.md, "Debugging"). Skipped (77)
# without gdb.
# Usage: gdb_test.sh BIN_DIR GDB_SCRIPT
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"
script=$2
if ! command -v gdb >/dev/null; then
  echo "gdb_test: skipped: no gdb (apt-get install gdb)"
  exit 77
fi
cat >counter.c <<'C'
#include <mpi.h>
#include <stdio.h>
int counter;
__attribute__((noinline)) void stop_here(int rank) { printf("rank %d at %d\n", rank, counter); }
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  counter = 10 * rank + 7;
  MPI_Barrier(MPI_COMM_WORLD);
  stop_here(rank);
  MPI_Finalize();
  return 0;
}
C
check "build with -g" "$bin/tucanacc" -g -O0 counter.c -o counter
cat >cmds.gdb <<G
set pagination off
set breakpoint pending on
source $script
break stop_here if rank == 2
run
tucana-print counter
print \$tucana_priv(counter) + 1
print counter
continue
G
check "gdb shows subrank 2's copy" bash -c "TUCANA_VF=4 gdb -q -batch -x cmds.gdb ./counter >gdb.log 2>&1; grep -q '^counter = 27\$' gdb.log && grep -q '= 28\$' gdb.log && grep -q '= 0\$' gdb.log || { cat gdb.log; false; }"
finish
