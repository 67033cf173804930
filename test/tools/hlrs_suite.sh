#!/usr/bin/env bash
# A quick selection of the HLRS / Open MPI mpi-test-suite, natively and under
# Tucana (shared layout: 4 subranks on 2 processes), through
# scripts/hlrs-testsuite.sh.  Fails when a combination (test x communicator x
# datatype) that passes natively fails or hangs under Tucana.
#
# Usage: hlrs_suite.sh [BIN_DIR [WORK_DIR]]
#   BIN_DIR   Tucana's bin directory (default: <project>/build/bin)
#   WORK_DIR  where the suite is built and run; kept between runs so that
#             the builds are reused (env TUCANA_HLRS_SUITE_WORK; default
#             ${TMPDIR:-/tmp}/tucana-hlrs-suite-<uid>)
# The suite's sources: env TUCANA_HLRS_SUITE_SRC (a checkout, a release tree
# or a git repository), else /work/.mirror/open-mpi+mpi-test-suite/repo (a
# bare git repository: hlrs-testsuite.sh extracts its HEAD).  Without them,
# or without the tools to build them, the test is skipped (exit 77).
#
# The selection (a minute or two once built; the first run builds both
# binaries, a few minutes more):
#   * Environment, P2P (intercommunicator tests included), Collective and
#     One-sided, all communicators, 8 datatypes: predefined, a pair type with
#     a hole, vector, struct, and a mix of arrays;
#   * 10 IO tests (independent, collective, nonblocking, shared and ordered
#     file pointers, darray/subarray views, holes) with 4 datatypes and every
#     communicator but "Odd/Even split MPI_COMM_WORLD": the suite names its
#     files after getpid(), which the two groups' roots share when they are
#     subranks of one process, so the groups race on one file.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/../.." && pwd)
bin=${1:-$project/build/bin}
work=${2:-${TUCANA_HLRS_SUITE_WORK:-${TMPDIR:-/tmp}/tucana-hlrs-suite-$(id -u)}}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

skip() { echo "SKIP: $*"; exit 77; }

src=${TUCANA_HLRS_SUITE_SRC:-/work/.mirror/open-mpi+mpi-test-suite/repo}
[ -e "$src" ] || skip "mpi-test-suite sources not found ($src; set TUCANA_HLRS_SUITE_SRC)"
for tool in mpicc mpirun autoreconf make python3 perl; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
# A git checkout has no generated command-line parser: gengetopt makes it.
if [ ! -f "$src/cmdline.c" ]; then
  command -v gengetopt >/dev/null || skip "gengetopt not installed (needed to build mpi-test-suite from git)"
fi
if [ ! -x "$bin/tucanacc" ] || [ ! -x "$bin/tucana-run" ]; then
  echo "FAIL: no tucanacc/tucana-run in $bin"
  exit 1
fi

mkdir -p "$work"
rm -f "$work"/results-*.tsv "$work"/regressions-*.tsv   # the builds stay

start=$(date +%s)
common=(--src "$src" --work "$work" --tucana-bin "$bin" --build both --layout "native,shared"
        --np 4 --timeout 30 --max-timeouts 3 --job-limit 300)
"$project/scripts/hlrs-testsuite.sh" "${common[@]}" \
  --tests Environment,P2P,Collective,One-sided \
  --datatypes MPI_CHAR,MPI_INT,MPI_DOUBLE,MPI_DOUBLE_INT,MPI_VECTOR_INT,MPI_HINDEXED_INT,MPI_STRUCT_INT,MPI_TYPE_MIX_ARRAY
"$project/scripts/hlrs-testsuite.sh" "${common[@]}" \
  --tests "file simple,read_at_all,write_all,iread_at,iwrite,read_ordered,write_shared,read_darray,write_subarray,io_with_hole" \
  --comms "all,^Odd/Even split MPI_COMM_WORLD" \
  --datatypes MPI_INT,MPI_DOUBLE,MPI_VECTOR_INT,MPI_STRUCT_INT
secs=$(($(date +%s) - start))

# The verdict: native passes that fail (or hang) under Tucana.
native_ok=$(awk -F'\t' 'NR > 1 && $5 == "PASS"' "$work/results-native.tsv" | wc -l)
[ "$native_ok" -gt 0 ] || { echo "FAIL: nothing passed natively: the harness or the native build is broken"; exit 1; }
regress=$work/regressions-shared.tsv
[ -f "$regress" ] || { echo "FAIL: no $regress"; exit 1; }
bad=$(awk -F'\t' 'NR > 1 && $5 != "NOT RUN"' "$regress" | wc -l)
notrun=$(awk -F'\t' 'NR > 1 && $5 == "NOT RUN"' "$regress" | wc -l)
[ "$notrun" -eq 0 ] || echo "note: $notrun native passes were not started under tucana (see $regress)"
if [ "$bad" -gt 0 ]; then
  echo "FAIL: $bad combination(s) pass natively but fail under tucana ($regress):"
  awk -F'\t' 'NR > 1 && $5 != "NOT RUN"' "$regress" | head -20 | sed 's/^/    /'
  exit 1
fi
echo "hlrs_suite: $native_ok native passes, none failing under tucana (shared layout, 4 ranks; ${secs} s)"
