#!/bin/sh
# Correctness check of the TPOD program: runs, at one small problem,
#   tpod.original                       with NATIVE_MPIRUN -np 4 (one block per rank)
#   tpod.hybrid, blocks 4 4 4, shuffled with TUCANA_RUN -np 2
#   tpod.hybrid, blocks 5 3 7, natural  with TUCANA_RUN -np 2 --workers 2 (4 ranks)
#   tpod.hybrid, blocks 0 0 0 (whole)   with TUCANA_RUN -np 4
# and requires of each run exit status 0 and "tpod: OK" (at this size each
# run also compares its grid bit for bit with a serial computation), and of
# all runs the same "checksum" line: the result does not depend on the block
# size, the order of the blocks or the rank count. Prints
# "check_variants: ok" or "check_variants: FAILED" (as check_variants.sh).
#
# usage: check_tpod.sh BINDIR NATIVE_MPIRUN TUCANA_RUN [NX NY NZ ITERATIONS]
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 BINDIR NATIVE_MPIRUN TUCANA_RUN [NX NY NZ ITERATIONS]" >&2
  exit 2
fi
bindir=$1 mpirun=$2 run=$3
shift 3
problem=${*:-"24 20 18 8"}

name=tpod
. "$(dirname "$0")/../check_common.sh"

# $problem and the blocks are split into words on purpose.
check_run original "$mpirun -np 4 $oversub" "$bindir/tpod.original" $problem 0 0 0
check_run hybrid-4x4x4 "$run -np 2" "$bindir/tpod.hybrid" $problem 4 4 4 1
check_run hybrid-5x3x7-natural "$run -np 2 --workers 2" "$bindir/tpod.hybrid" $problem 5 3 7 0
check_run hybrid-whole "$run -np 4" "$bindir/tpod.hybrid" $problem 0 0 0
check_verdict
