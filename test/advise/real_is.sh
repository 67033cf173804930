#!/bin/bash
# real_is.sh TUCANA_CCO MPICC MPIRUN WORKDIR
# The real NAS IS (NPB3.4-MPI, unmodified, from ../shared/realapps next to
# the repository), class W:
#  * `tucana-cco check` names all three communication sites of rank(), the
#    function the timed loop calls (MPI_Allreduce, MPI_Alltoall,
#    MPI_Alltoallv), in the text and the JSON output, each with the timed
#    loop and a verdict;
#  * `tucana-cco rewrite --mpi` of is.c as published says why the loop is
#    not rewritten, and its output builds and verifies (Verification =
#    SUCCESSFUL, the same verification lines as the original) at 2 and 4
#    ranks;
#  * with the pragma lines of bench/nas_is/annotate.sh (no other change),
#    `rewrite --mpi` inlines rank() and pipelines the timed loop around
#    MPI_Alltoallv, and that output verifies the same way.
# Skips (exit 77) when ../shared/realapps/NPB3.4-MPI is absent.
set -u
cco=$1 mpicc=$2 mpirun=$3 work=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
npb="$root/../shared/realapps/NPB3.4-MPI"
if [ ! -f "$npb/IS/is.c" ]; then
  echo "SKIP: the real NAS IS is not here ($npb/IS/is.c): this test needs ../shared/realapps next to the repository"
  exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/config" "$work/IS" "$work/sys" || fail "cannot make $work"
cp "$npb/config/make.def.template" "$work/config/make.def"
cc -DFORTRAN_REC_SIZE=1 -o "$work/sys/setparams" "$npb/sys/setparams.c" || fail "setparams does not build"
(cd "$work/IS" && ../sys/setparams is W) || fail "setparams is W failed"
[ -f "$work/IS/npbparams.h" ] || fail "no npbparams.h"
cp "$npb/IS/is.c" "$work/IS/is.c"
flags=(-I "$work/IS" -I "$npb/common")

# check: the three sites of rank(), each in the timed loop (line of 'for( iteration=1;').
loop=$(grep -n "for( *iteration=1" "$npb/IS/is.c" | head -1 | cut -d: -f1)
[ -n "$loop" ] || fail "no timed loop in is.c"
text=$("$cco" check "$work/IS/is.c" -- "${flags[@]}") || fail "tucana-cco check failed"
echo "$text"
for call in MPI_Allreduce MPI_Alltoall MPI_Alltoallv; do
  line=$(grep -n "^ *$call(" "$npb/IS/is.c" | head -1 | cut -d: -f1)
  grep -qE "is\.c:$loop:[0-9]+: (warning|note): loop over 'iteration': $call at line $line (is|cannot)" <<<"$text" ||
    fail "check does not report $call (line $line) in the loop at line $loop"
done
json=$("$cco" check --json "$work/IS/is.c" -- "${flags[@]}") || fail "tucana-cco check --json failed"
python3 -c '
import json, sys
loop = int(sys.argv[1])
d = json.load(sys.stdin)
sites = [s for l in d["loops"] if l["line"] == loop for s in l["sites"]]
calls = sorted(s["call"] for s in sites)
assert calls == ["MPI_Allreduce", "MPI_Alltoall", "MPI_Alltoallv"], calls
assert all(s["verdict"] in ("safe", "unsafe", "unsupported") and (s["verdict"] == "safe" or s["reasons"]) for s in sites)
print("JSON: the loop at line %d has %s" % (loop, ", ".join("%s (%s)" % (s["call"], s["verdict"]) for s in sites)))
' "$loop" <<<"$json" || fail "the JSON output lacks a site"

# rewrite --mpi: the note for the loop, then the output builds and verifies like the original.
notes=$("$cco" rewrite --mpi "$work/IS/is.c" -o "$work/IS/is_cco.c" -- "${flags[@]}") || fail "tucana-cco rewrite failed"
echo "$notes"
grep -qE "is\.c:$loop:[0-9]+: note: loop over 'iteration': (pipelined|not rewritten: )" <<<"$notes" ||
  fail "rewrite says nothing about the loop at line $loop"
common="$npb/common"
build() {
  "$mpicc" -O2 "${flags[@]}" -o "$2" "$1" "$common/c_print_results.c" "$common/c_timers.c" -lm
}
build "$work/IS/is.c" "$work/is.orig" || fail "the original does not build"
build "$work/IS/is_cco.c" "$work/is.cco" || fail "the rewritten IS does not build"
# The pragma lines only: rank() inlined, the timed loop pipelined.
"$root/bench/nas_is/annotate.sh" "$work/IS/is.c" "$work/IS/is_pragmas.c" || fail "annotate.sh failed"
[ "$(diff "$work/IS/is.c" "$work/IS/is_pragmas.c" | grep '^[<>]' | grep -vc '^> #pragma cco ')" = 0 ] ||
  fail "annotate.sh changed more than pragma lines"
notes=$("$cco" rewrite --mpi "$work/IS/is_pragmas.c" -o "$work/IS/is_pipe.c" -- "${flags[@]}") ||
  fail "tucana-cco rewrite of the annotated IS failed"
echo "$notes"
grep -qE "is_pragmas\.c:$((loop + 1)):[0-9]+: note: loop over 'iteration': pipelined MPI_Alltoallv at line $(grep -n "^ *MPI_Alltoallv(" "$npb/IS/is.c" | head -1 | cut -d: -f1)" <<<"$notes" ||
  fail "the annotated timed loop was not pipelined around MPI_Alltoallv"
grep -q "tucana-cco: 'rank' inlined" "$work/IS/is_pipe.c" || fail "rank() was not inlined"
"$mpicc" -O2 -Wall -Wextra "${flags[@]}" -c -o "$work/is_pipe.o" "$work/IS/is_pipe.c" 2>"$work/warnings.txt" ||
  fail "the pipelined IS does not compile"
grep -q "is_pipe\.c.*warning" "$work/warnings.txt" && { cat "$work/warnings.txt"; fail "the generated code has warnings"; }
build "$work/IS/is_pipe.c" "$work/is.pipe" || fail "the pipelined IS does not build"
over=()
"$mpirun" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE" && over=(--oversubscribe)
for np in 2 4; do
  a=$(timeout 120 "$mpirun" "${over[@]}" -np $np "$work/is.orig" 2>&1) || fail "the original failed at -np $np"
  grep -q "Verification *= *SUCCESSFUL" <<<"$a" || fail "the original does not verify at -np $np"
  va=$(grep -E "Verification|Class|Iterations|Size" <<<"$a")
  for v in cco pipe; do
    b=$(timeout 120 "$mpirun" "${over[@]}" -np $np "$work/is.$v" 2>&1) || fail "the rewritten IS ($v) failed at -np $np"
    grep -q "Verification *= *SUCCESSFUL" <<<"$b" || fail "the rewritten IS ($v) does not verify at -np $np"
    vb=$(grep -E "Verification|Class|Iterations|Size" <<<"$b")
    [ "$va" = "$vb" ] || { diff <(echo "$va") <(echo "$vb"); fail "verification lines differ at -np $np ($v)"; }
    echo "np $np ($v): $(grep Verification <<<"$b")"
  done
done
echo "PASS"
