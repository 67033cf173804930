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

OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
oversub=""
if $mpirun --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi

failed=""
sums=""
# one LABEL LAUNCHER EXE BLOCKS: runs it, checks OK and records the checksum
one() {
  label=$1 launch=$2 exe=$3 blocks=$4
  # $launch and the arguments are split into words on purpose.
  out=$($launch "$exe" $problem $blocks 2>&1)
  st=$?
  echo "== $label ($launch $exe $problem $blocks): exit $st"
  echo "$out"
  sum=$(echo "$out" | grep '^checksum ' | head -n 1)
  if [ $st -ne 0 ]; then failed="$failed $label:exit-$st"; fi
  if ! echo "$out" | grep -q "^tpod: OK\$"; then failed="$failed $label:no-OK-line"; fi
  if [ -z "$sum" ]; then failed="$failed $label:no-checksum"; fi
  sums="$sums$label $sum
"
}
one original "$mpirun -np 4 $oversub" "$bindir/tpod.original" "0 0 0"
one hybrid-4x4x4 "$run -np 2" "$bindir/tpod.hybrid" "4 4 4 1"
one hybrid-5x3x7-natural "$run -np 2 --workers 2" "$bindir/tpod.hybrid" "5 3 7 0"
one hybrid-whole "$run -np 4" "$bindir/tpod.hybrid" "0 0 0"

distinct=$(printf '%s' "$sums" | sed 's/^[^ ]* //' | sort -u | wc -l)
if [ "$distinct" -ne 1 ]; then
  failed="$failed checksums-differ"
  printf '%s' "$sums"
fi
if [ -n "$failed" ]; then
  echo "check_variants: FAILED (tpod:$failed)"
  exit 1
fi
echo "check_variants: ok (tpod, $(printf '%s' "$sums" | head -n 1 | sed 's/^[^ ]* //'))"
