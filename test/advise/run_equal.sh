#!/bin/bash
# run_equal.sh TUCANA_CCO PROG.c NP MPICC MPIRUN WORKDIR [PROGRAM ARGS...]
# Rewrites PROG.c with `tucana-cco rewrite --mpi` (which must pipeline at
# least one loop), builds the original and the rewritten program with the
# system mpicc (the rewritten one with -Wall -Wextra -Werror, with the
# default test frequency, with a test at every progress call and with none),
# runs each under mpirun -np NP (with PROGRAM ARGS) and compares their
# outputs, less the `time ...` lines the benchmark programs print.
set -u
cco=$1 src=$2 np=$3 mpicc=$4 mpirun=$5 work=$6
shift 6
name=$(basename "$src" .c)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"
notes=$("$cco" rewrite --mpi "$src" -o "$work/$name.cco.c" --) || fail "tucana-cco rewrite failed"
echo "$notes"
grep -q ": pipelined " <<<"$notes" || fail "no loop of $name was pipelined"
"$mpicc" -O2 -o "$work/$name.orig" "$src" -lm || fail "the original does not build"
for freq in default 1 0; do
  def=""
  [ "$freq" = default ] || def="-DTUCANA_CCO_TEST_FREQ=$freq"
  "$mpicc" -O2 -Wall -Wextra -Werror $def -o "$work/$name.cco.$freq" "$work/$name.cco.c" -lm ||
    fail "the rewritten program does not build cleanly ($def)"
done
# --oversubscribe is Open MPI's (MPICH's Hydra oversubscribes as it is)
over=()
"$mpirun" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE" && over=(--oversubscribe)
run() {
  set -o pipefail
  timeout 120 "$mpirun" "${over[@]}" -np "$np" "$@" | grep -v '^time '
}
expected=$(run "$work/$name.orig" "$@") || fail "the original failed at -np $np"
[ -n "$expected" ] || fail "the original printed nothing"
for freq in default 1 0; do
  got=$(run "$work/$name.cco.$freq" "$@") || fail "the rewritten program failed at -np $np (test frequency $freq)"
  if [ "$got" != "$expected" ]; then
    diff <(echo "$expected") <(echo "$got")
    fail "outputs differ at -np $np (test frequency $freq)"
  fi
done
echo "$expected"
echo "PASS: $name -np $np: the same output"
