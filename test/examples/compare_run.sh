#!/bin/sh
# Runs an example's original build under the plain MPI launcher and its
# translated build under tucana-run with the same number of ranks, and
# requires the same output (timings aside) and the example's own "OK".
#
# usage: compare_run.sh NATIVE_LAUNCHER NATIVE_BIN TUCANA_RUN VIRTUAL_BIN P V [ARGS...]
#   N = P*V ranks: `NATIVE_LAUNCHER -np N NATIVE_BIN ARGS` against
#   `TUCANA_RUN -np P --vf V VIRTUAL_BIN ARGS`
set -u
launcher=$1 native=$2 run=$3 virtual=$4 p=$5 v=$6
shift 6
n=$((p * v))
oversub=""
if $launcher --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi
norm() { sed -E 's/ time [0-9.eE+-]+( s)?//'; }

out_native=$($launcher -np "$n" $oversub "$native" "$@" 2>&1)
st_native=$?
out_virtual=$($run -np "$p" --vf "$v" "$virtual" "$@" 2>&1)
st_virtual=$?
echo "== plain MPI, $n ranks (exit $st_native):"
echo "$out_native"
echo "== Tucana, $p processes x $v subranks (exit $st_virtual):"
echo "$out_virtual"
if [ $st_native -ne 0 ] || [ $st_virtual -ne 0 ]; then echo "compare_run: FAILED (exit status)"; exit 1; fi
if echo "$out_native" | grep -q ": OK" && ! echo "$out_virtual" | grep -q ": OK"; then
  echo "compare_run: FAILED (no OK line)"
  exit 1
fi
if [ "$(echo "$out_native" | norm)" != "$(echo "$out_virtual" | norm)" ]; then
  echo "compare_run: FAILED (outputs differ)"
  exit 1
fi
echo "compare_run: ok"
