#!/bin/sh
# Correctness check of one benchmark program's four variants: runs
#   NAME.original and NAME.overlap   with NATIVE_MPIRUN -np NATIVE_NP
#   NAME.tucana and NAME.virtualized with TUCANA_RUN -np P --vf VF
# (the same number of ranks, NATIVE_NP = P * VF, so that programs whose
# problem depends on the rank count compare too) and requires of each run
# exit status 0 and a line "NAME: OK", and of the four runs identical
# "checksum" lines. Prints "check_variants: ok" or "check_variants: FAILED".
#
# usage: check_variants.sh NAME BINDIR NATIVE_MPIRUN NATIVE_NP TUCANA_RUN P VF [ARGS...]
set -u
if [ $# -lt 7 ]; then
  echo "usage: $0 NAME BINDIR NATIVE_MPIRUN NATIVE_NP TUCANA_RUN P VF [ARGS...]" >&2
  exit 2
fi
name=$1 bindir=$2 mpirun=$3 nnp=$4 run=$5 p=$6 vf=$7
shift 7

# Open MPI refuses root without these, and more ranks than cores without
# --oversubscribe.
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
# OpenBLAS (cannon) must not start threads of its own next to the ranks.
OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export OPENBLAS_NUM_THREADS
oversub=""
if $mpirun --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi

failed=""
sums=""
for variant in original overlap tucana virtualized; do
  exe="$bindir/$name.$variant"
  case $variant in
    original | overlap) how="$mpirun -np $nnp $oversub"; out=$($mpirun -np "$nnp" $oversub "$exe" "$@" 2>&1) ;;
    *) how="$run -np $p --vf $vf"; out=$($run -np "$p" --vf "$vf" "$exe" "$@" 2>&1) ;;
  esac
  st=$?
  echo "== $variant ($how $exe $*): exit $st"
  echo "$out"
  sum=$(echo "$out" | grep '^checksum ' | head -n 1)
  if [ $st -ne 0 ]; then failed="$failed $variant:exit-$st"; fi
  if ! echo "$out" | grep -q "^$name: OK\$"; then failed="$failed $variant:no-OK-line"; fi
  if [ -z "$sum" ]; then failed="$failed $variant:no-checksum"; fi
  sums="$sums$variant $sum
"
done
distinct=$(printf '%s' "$sums" | sed 's/^[a-z]* //' | sort -u | wc -l)
if [ "$distinct" -ne 1 ]; then
  failed="$failed checksums-differ"
  printf '%s' "$sums"
fi
if [ -n "$failed" ]; then
  echo "check_variants: FAILED ($name:$failed)"
  exit 1
fi
echo "check_variants: ok ($name, $(printf '%s' "$sums" | head -n 1 | sed 's/^[a-z]* //'))"
