#!/usr/bin/env bash
# Tucana's <mpi.h> against the whole of MPI 3.1: every function and constant
# compiles (C and C++), no program object ever refers to the system MPI's
# symbols, every function links, and a function Tucana does not run yet is a
# warning at compile time and a clean MPI error at run time.
# Usage: mpi_header_test.sh BIN_DIR
data=$(cd "$(dirname "${BASH_SOURCE[0]}")/data" && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"
cc="$bin/tucanacc"
cxx="$bin/tucanacxx"
run="$bin/tucana-run"

# --- every MPI 3.1 name ---------------------------------------------------------
{
  echo '#include <mpi.h>'
  echo '#include <stdint.h>'
  echo 'void *const all_functions[] = {'
  grep -v '^#' "$data/mpi31-functions.txt" | while read -r f; do
    echo "  (void *)&$f, (void *)&P$f,"
  done
  echo '};'
  echo 'long long all_constants(void) {'
  echo '  volatile long long sink = 0;'
  grep -v '^#' "$data/mpi31-constants.txt" | while read -r c; do
    echo "  sink += (long long)(intptr_t)($c);"
  done
  echo '  return sink;'
  echo '}'
} >all.c
cat >main.c <<'C'
#include <mpi.h>
#include <stdio.h>
extern void *const all_functions[];
long long all_constants(void);
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf("linked %d\n", all_functions[0] != 0 && all_constants() != 0);
  MPI_Finalize();
  return 0;
}
C
cp all.c all.cpp
no_system_mpi_symbols() {  # object: it refers to no MPI_/PMPI_ symbol
  local bad
  bad=$(nm -u "$1" | awk '$2 ~ /^P?MPIX?_/ { print $2 }')
  [ -z "$bad" ] || { echo "$1 refers to the system MPI: $bad" | head -20; return 1; }
}
check "every MPI 3.1 function and constant compiles in C, warning-free" \
  "$cc" -Wall -Wextra -Werror -c all.c -o all.o
check "every MPI 3.1 function and constant compiles in C++" "$cxx" -Wall -Werror -c all.cpp -o allxx.o
check "C object refers to no symbol of the system MPI" no_system_mpi_symbols all.o
check "C++ object refers to no symbol of the system MPI" no_system_mpi_symbols allxx.o
check "every MPI 3.1 function and its PMPI_ name links" "$cc" all.o main.c -o all
check "the program that names them all runs" expect_output '^linked 1' "$run" -np 1 ./all

# --- a call Tucana does not run yet: a warning, not an error ---------------------
cat >rma.h <<'C'
/* as in a common header: a helper that is never called (the PRK do this) */
static inline int window_base(MPI_Win win, void **base) {
  int flag;
  return MPI_Win_get_attr(win, MPI_WIN_BASE, base, &flag);
}
C
cat >guarded.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "rma.h"
int (*open_port)(MPI_Info, char *) = MPI_Open_port; /* a pointer, never called */
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (getenv("USE_SPAWN")) {
    MPI_Comm children;
    MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, MPI_ERRCODES_IGNORE);
  }
  if (rank == 0) printf("guarded ok\n");
  MPI_Finalize();
  return 0;
}
C
for opt in -O0 -O2; do
  check "guarded call compiles at $opt with a warning naming it" \
    expect_output "warning: .*MPI_Comm_spawn is not supported by Tucana: dynamic process" "$cc" $opt guarded.c -o guarded$opt
done
check "the uncalled helper in a header draws no diagnostic at -O2" \
  bash -c "! grep -q MPI_Win_get_attr out.log"
check "-DTUCANA_ALLOW_UNSUPPORTED silences the warning" \
  bash -c "'$cc' -O2 -DTUCANA_ALLOW_UNSUPPORTED guarded.c -o guarded_quiet 2>&1 | { ! grep -q 'not supported'; }"
check "-DTUCANA_STRICT_MPI makes it an error naming the call" \
  expect_fail_with "error: .*MPI_Comm_spawn is not supported by Tucana" "$cc" -O2 -DTUCANA_STRICT_MPI guarded.c -o guarded_strict
check "the strict build left no output" test ! -e guarded_strict
check "the guarded program runs when the path is not taken" expect_output '^guarded ok' "$run" -np 2 --vf 2 ./guarded-O2
check "the function pointer refers to Tucana, not the system MPI" \
  bash -c "'$cc' -O2 -c guarded.c -o guarded.o 2>/dev/null && nm -u guarded.o | grep -q ' TMPI_Open_port$' && ! nm -u guarded.o | grep -qE ' P?MPI_'"

# --- at run time: the communicator's error handler decides ------------------------
cat >unsupported.c <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, cls = -1, len;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm returning;
  MPI_Comm_dup(MPI_COMM_WORLD, &returning);
  MPI_Comm_set_errhandler(returning, MPI_ERRORS_RETURN);
  /* the communicator argument's handler: MPI_ERRORS_RETURN */
  MPI_Comm children;
  int rc = MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, returning, &children, MPI_ERRCODES_IGNORE);
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  if (rank == 0) printf("rc class %s, %s\n", cls == MPI_ERR_UNSUPPORTED_OPERATION ? "unsupported" : "other", text);
  MPI_Barrier(MPI_COMM_WORLD);
  /* no communicator argument: MPI_COMM_WORLD's handler, fatal by default */
  char port[MPI_MAX_PORT_NAME];
  if (argc > 1) MPI_Open_port(MPI_INFO_NULL, port);
  MPI_Comm_free(&returning);
  MPI_Finalize();
  return 0;
}
C
"$cc" -O2 -DTUCANA_ALLOW_UNSUPPORTED unsupported.c -o unsupported 2>/dev/null
check "MPI_ERRORS_RETURN: the call returns MPI_ERR_UNSUPPORTED_OPERATION" \
  expect_output '^rc class unsupported, MPI_ERR_UNSUPPORTED_OPERATION' "$run" -np 2 --vf 2 ./unsupported
check "MPI_ERRORS_RETURN: a warning names the call, the reason and the subrank" \
  grep -qE 'tucana: warning: subrank [0-3]: MPI_Comm_spawn is not supported by Tucana: dynamic process' out.log
check "the warning is said once per process, not once per call" \
  test "$(grep -c 'MPI_Comm_spawn is not supported' out.log)" -le 2
check "MPI_ERRORS_ARE_FATAL: the job fails, naming the subrank and the call" \
  expect_fail_with 'error: subrank [0-3]: MPI_Open_port: MPI_Open_port is not supported by Tucana' \
  "$run" -np 2 --vf 2 ./unsupported fatal

finish
