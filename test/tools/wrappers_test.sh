#!/usr/bin/env bash
# Tests of tucanacc/tucanacxx and tucana-run as a user meets them: flags like
# mpicc's, the program's main wrapped, unsupported calls warned about at compile time, global
# variables privatized or (when they cannot be) listed, launcher errors for impossible layouts.
# Usage: wrappers_test.sh BIN_DIR
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"

cat >ring.c <<'C'
#include <mpi.h>
#include <stdio.h>
int ring_step(int rank, int size);
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int got = ring_step(rank, size);
  int sum = 0;
  MPI_Reduce(&got, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ring sum %d size %d args %d %s\n", sum, size, argc, argc > 1 ? argv[1] : "-");
  MPI_Finalize();
  return 0;
}
C
cat >step.c <<'C'
#include <mpi.h>
int calls;              /* privatized by tucanacc; listed when it is not */
static double history[4];
int ring_step(int rank, int size) {
  static int last;      /* a static local: also */
  int got;
  calls++;
  last = rank;
  history[0] = last;
  MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return got + (int)history[0] - last + calls - calls;
}
const int table[3] = {1, 2, 3};  /* constant: not listed */
C
cat >spawn.c <<'C'
#include <mpi.h>
int main(int argc, char **argv) {
  MPI_Comm children;
  MPI_Init(&argc, &argv);
  MPI_Comm_spawn("worker", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, MPI_ERRCODES_IGNORE);
  MPI_Finalize();
  return 0;
}
C
cat >ring.cpp <<'C'
#include <mpi.h>
#include <iostream>
#include <vector>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> v(1, rank);
  int total = 0;
  MPI_Allreduce(v.data(), &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::cout << "cxx total " << total << "\n";
  MPI_Finalize();
}
C

# compile and link in one step, several sources, -D/-I/-O flags
check "one-step build" bash -c "'$bin/tucanacc' -O2 -DUNUSED=1 -I. -o ring ring.c step.c 2>build.log"
check "privatized globals not listed" bash -c "! grep -q variable build.log"
check "--privatize=no" bash -c "'$bin/tucanacc' --privatize=no -O2 -I. -o ring_shared ring.c step.c 2>shared.log"
check "globals listed" grep -q "global variable 'calls' (step.c) is shared" shared.log
check "static listed" grep -q "static variable 'history' (step.c)" shared.log
check "static local listed" grep -q "static local variable 'last' (step.c)" shared.log
check "constants not listed" bash -c "! grep -q table shared.log"
check "shared globals still run" expect_output "ring sum 28 size 8" "$bin/tucana-run" -np 2 --vf 4 ./ring_shared
# An object or static library compiled without tucanacc: its globals are
# named at the link, with the archive they come from.
plain_flags=$("$bin/tucanacc" -showme:compile)
check "plain object" bash -c "cc $plain_flags -c step.c -o step_plain.o && ar rcs libstepplain.a step_plain.o"
check "plain archive linked" bash -c "'$bin/tucanacc' ring.c -L. -lstepplain -o ring_archive 2>archive.log"
check "plain archive's globals listed" grep -q "global variable 'calls' (./libstepplain.a) is shared" archive.log
check "a shared library holds privatized globals (test/dso runs them)" bash -c \
  "'$bin/tucanacc' -fPIC -shared step.c -o libstep.so && readelf -SW libstep.so | grep -q ' tucana_priv '"
check "a shared library with --privatize=no" "$bin/tucanacc" --privatize=no --no-global-warnings -fPIC -shared step.c -o libstep.so
check "plain archive runs" expect_output "ring sum 28 size 8" "$bin/tucana-run" -np 2 --vf 4 ./ring_archive
check "run under tucana-run" expect_output "ring sum 28 size 8 args 2 hello" "$bin/tucana-run" -np 2 --vf 4 ./ring hello
check "run directly (one process, one subrank)" expect_output "ring sum 0 size 1" ./ring
check "run directly with TUCANA_VF" expect_output "ring sum 6 size 4" env TUCANA_VF=4 ./ring
# -c then link, like mpicc
check "separate compile" "$bin/tucanacc" -c ring.c
check "separate compile -o" "$bin/tucanacc" -c step.c -o step_obj.o
check "link objects" bash -c "'$bin/tucanacc' ring.o step_obj.o -o ring2 2>link.log"
check "privatized objects: nothing listed" bash -c "! grep -q variable link.log"
check "objects run" expect_output "ring sum 6 size 4" "$bin/tucana-run" -np 1 --vf 4 ./ring2
check "no -o with -c and two sources" expect_fail_with "cannot specify -o" "$bin/tucanacc" -c ring.c step.c -o x.o
check "silence global warnings" bash -c "'$bin/tucanacc' --no-global-warnings ring.c step.c -o ring3 2>&1 | grep -c warning | grep -qx 0"
# C++
check "tucanacxx" "$bin/tucanacxx" -O2 -o ringxx ring.cpp
check "C++ run" expect_output "cxx total 6" "$bin/tucana-run" -np 2 --vf 2 ./ringxx
# unsupported calls: a compile-time warning that names the call (an error
# with -DTUCANA_STRICT_MPI; more in mpi_header_test.sh)
check "unsupported call, C" expect_output "warning: .*MPI_Comm_spawn is not supported by Tucana" "$bin/tucanacc" -c spawn.c
check "unsupported call, C++" expect_output "warning: .*MPI_Comm_spawn is not supported by Tucana" "$bin/tucanacxx" -x c++ -c spawn.c
check "unsupported call, strict" expect_fail_with "error: .*MPI_Comm_spawn is not supported by Tucana" "$bin/tucanacc" -DTUCANA_STRICT_MPI -c spawn.c
check "unknown call, C" bash -c "printf '#include <mpi.h>\nint main(void){ MPI_Made_up(1); return 0; }\n' > made.c; ! '$bin/tucanacc' -c made.c"
check "showme" expect_output "--wrap=main" "$bin/tucanacc" -show ring.c step.c
check "no input" expect_fail_with "no input files" "$bin/tucanacc" -O2
# launcher errors
check "vf and vranks" expect_fail_with "either --vf or --vranks" "$bin/tucana-run" -np 2 --vf 2 --vranks 8 ./ring
check "too few vranks" expect_fail_with "impossible layout: 3 subranks" "$bin/tucana-run" -np 2 --workers 2 --vranks 3 ./ring
check "bad np" expect_fail_with "-np must be a positive integer" "$bin/tucana-run" -np zero ./ring
check "bad stack size" expect_fail_with "--stack-size must be a size" "$bin/tucana-run" --stack-size lots ./ring
check "missing program" expect_fail_with "is not an executable" "$bin/tucana-run" -np 1 ./nothing-here
check "unknown option" expect_fail_with "unknown option '--bogus'" "$bin/tucana-run" --bogus ./ring
check "help" expect_output "virtualization factor" "$bin/tucana-run" --help
check "vranks uneven blocks" expect_output "ring sum 15 size 6" "$bin/tucana-run" -np 2 --vranks 6 ./ring
check "env vars" expect_output "ring sum 15 size 6" env TUCANA_NP=2 TUCANA_VF=3 "$bin/tucana-run" ./ring
# Open MPI: settings with -x, and unbound processes for several workers;
# MPICH (Hydra, which does not bind by default): settings with -genv.
check "dry run shows settings" expect_output "TUCANA_WORKERS=2.*(--bind-to none.*-x TUCANA_WORKERS=2|-genv TUCANA_WORKERS 2)" "$bin/tucana-run" --dry-run -np 2 --workers 2 --vf 2 ./ring
check "runtime rejects bad env" expect_fail_with "TUCANA_STACK_SIZE=huge" env TUCANA_STACK_SIZE=huge ./ring

# --trace: a Chrome trace with regions (subrank, iteration), and the utilization summary
cat >sb.c <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double in = 0, out = rank, sum = 0;
  MPI_Request req[2];
  #pragma tucana superblock
  for (int it = 0; it < 5; it++) {
    #pragma tucana receive
    { MPI_Irecv(&in, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]); }
    #pragma tucana send
    { MPI_Isend(&out, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]); }
    #pragma tucana compute
    { MPI_Waitall(2, req, MPI_STATUSES_IGNORE); sum += in; out = in; }
  }
  if (rank == 0) printf("sum %g\n", sum);
  MPI_Finalize();
  return 0;
}
C
check "superblock program" "$bin/tucanacc" -O2 -o sb sb.c
check "trace run" expect_output "trace written to .*/trace.json" "$bin/tucana-run" -np 2 --vf 2 --trace trace.json ./sb
check "utilization summary" grep -q "tucana: trace: process 1 worker 0: subranks running" out.log
check "trace is JSON with regions" python3 -c '
import json, sys
events = json.load(open("trace.json"))["traceEvents"]
regions = [e for e in events if e.get("cat") == "region"]
names = {e["name"] for e in regions}
assert names == {"receive", "send", "compute"}, names
assert {e["args"]["iteration"] for e in regions} == set(range(5)), "iterations"
assert {e["args"]["subrank"] for e in regions} == {0, 1, 2, 3}, "subranks"
assert {e["pid"] for e in events if e.get("ph") == "X"} == {0, 1}, "processes"
assert any(e.get("cat") == "subrank" for e in events)
'

finish
