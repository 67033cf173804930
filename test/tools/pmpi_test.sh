#!/usr/bin/env bash
# The MPI profiling interface on Tucana's virtual MPI: a tool that defines
# MPI_X and calls PMPI_X (as mpiP, Score-P and TAU do) links with tucanacc,
# as an object or from a static library, and sees every call of every
# subrank; the project's own NoComm library interposes the same way.
# Usage: pmpi_test.sh BIN_DIR
nocomm_src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tools/nocomm" && pwd)/nocomm.c
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"
cc="$bin/tucanacc"
cxx="$bin/tucanacxx"
run="$bin/tucana-run"

cat >tool.c <<'C'
/* A profiling tool: counts sends and bytes per subrank, reports at MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
static int sends, waits;
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ++sends;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  ++waits;
  return PMPI_Wait(request, status);
}
double MPI_Wtime(void) { return PMPI_Wtime() + 0.0; }
int MPI_Finalize(void) {
  int rank;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("tool: rank %d sends %d waits %d\n", rank, sends, waits);
  return PMPI_Finalize();
}
C
cat >app.c <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size, got = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Request req;
  MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &req);
  for (int i = 0; i <= rank; i++) MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, i ? 8 : 7, MPI_COMM_WORLD);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int i = 0; i < (rank + size - 1) % size; i++) MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (MPI_Wtime() < 0) return 1;
  printf("app: rank %d received %d\n", rank, got);
  MPI_Finalize();
  return 0;
}
C
# Thread-local counters would be per worker; the tool's counters are globals,
# so one subrank per process keeps its count exact.
check "a tool object and a program link with tucanacc" "$cc" -O2 tool.c app.c -o app_tool
check "the tool sees the calls of subrank 0" expect_output '^tool: rank 0 sends 1 waits 1$' "$run" -np 3 ./app_tool
check "the tool sees the calls of subrank 2" grep -q '^tool: rank 2 sends 3 waits 1$' out.log
check "the program still computes through the tool" grep -q '^app: rank 1 received' out.log
check "a tool in a static library links too" \
  bash -c "'$cc' -O2 -c tool.c -o tool.o && ar rcs libtool.a tool.o && '$cc' -O2 app.c -L. -ltool -o app_lib"
check "the library's wrappers are the ones called" expect_output '^tool: rank 1 sends 2 waits 1$' "$run" -np 2 ./app_lib
check "a C++ program links with the C tool" \
  bash -c "cp app.c app.cpp && '$cc' -O2 -c tool.c -o tool.o && '$cxx' -O2 app.cpp tool.o -o app_cxx"
check "the C++ program runs through the tool" expect_output '^tool: rank 0 sends 1' "$run" -np 2 ./app_cxx
check "without the tool, no tool output" \
  bash -c "'$cc' -O2 app.c -o app_plain && '$run' -np 2 ./app_plain | { ! grep -q tool:; }"

# The NoComm library (tools/nocomm) is such a tool: with it, point-to-point
# payloads never arrive, so the receive buffer keeps its old value (-1).
if [ -f "$nocomm_src" ]; then
  check "the NoComm library compiles and links with tucanacc" \
    bash -c "'$cc' -O2 -DTUCANA_ALLOW_UNSUPPORTED -c '$nocomm_src' -o nocomm.o && '$cc' -O2 app.c nocomm.o -o app_nocomm"
  check "NoComm interposes on Tucana's MPI: nothing is received" \
    expect_output '^app: rank 0 received -1$' env TUCANA_NOCOMM_QUIET=1 TUCANA_NOCOMM_REQUESTS=null "$run" -np 2 ./app_nocomm
  check "NoComm's completed requests are generalized requests" \
    expect_output '^app: rank 1 received -1$' env TUCANA_NOCOMM_QUIET=1 "$run" -np 2 --vf 2 ./app_nocomm
fi

finish
