#!/bin/bash
# run_tucana.sh TUCANA_CCO PROG.c TUCANACC TUCANA_RUN MPICC MPIRUN WORKDIR [PROGRAM ARGS...]
# Annotates PROG.c with `tucana-cco rewrite --tucana` (at least one loop must
# be annotated), builds it with tucanacc, runs it with tucana-run -np 2
# --vf 2 (4 ranks) and compares its output with the original's, built with
# the system mpicc and run under mpirun -np 4 (both with PROGRAM ARGS; the
# `time ...` lines the benchmark programs print are left out).
set -u
cco=$1 src=$2 tucanacc=$3 trun=$4 mpicc=$5 mpirun=$6 work=$7
shift 7
set -o pipefail
name=$(basename "$src" .c)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"
notes=$("$cco" rewrite --tucana "$src" -o "$work/$name.tucana.c" --) || fail "tucana-cco rewrite --tucana failed"
echo "$notes"
grep -q ": annotated for Tucana: " <<<"$notes" || fail "no loop of $name was annotated"
# Only pragma lines differ from the input.
diff <(grep -v '^ *#pragma ' "$src") <(grep -v '^ *#pragma ' "$work/$name.tucana.c") ||
  fail "the annotated program differs by more than pragma lines"
"$mpicc" -O2 -o "$work/$name.orig" "$src" -lm || fail "the original does not build"
"$tucanacc" -O2 -o "$work/$name.tucana" "$work/$name.tucana.c" -lm || fail "tucanacc failed"
# --oversubscribe is Open MPI's (MPICH's Hydra oversubscribes as it is)
over=()
"$mpirun" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE" && over=(--oversubscribe)
expected=$(timeout 120 "$mpirun" "${over[@]}" -np 4 "$work/$name.orig" "$@" | grep -v "^time ") || fail "the original failed"
[ -n "$expected" ] || fail "the original printed nothing"
got=$(timeout 120 "$trun" -np 2 --vf 2 "$work/$name.tucana" "$@" | grep -v "^time ") || fail "tucana-run failed"
if [ "$got" != "$expected" ]; then
  diff <(echo "$expected") <(echo "$got")
  fail "outputs differ"
fi
echo "$expected"
echo "PASS: $name under tucana-run -np 2 --vf 2: the same output"
