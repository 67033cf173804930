#!/bin/bash
# run_one.sh SOURCE [SOURCE...]  (or a directory holding the sources of one program)
# Builds with plain mpicc/mpicxx and with Tucana's tucanacc/tucanacxx, runs
#   mpirun -np 4 --oversubscribe        (reference)
#   tucana-run -np 1 --vf 4 / -np 2 --vf 2
# and compares sorted outputs. Prints one line: PASS name / FAIL name: cause.
# Env: TUCANA_BIN (default: build/bin of this checkout), KEEP=1 keeps the work dir,
#      EXTRA=1 also runs -np 1 --vf 2 --workers 2 --tasks 3 and -np 2 --vf 1 --workers 2 --tasks 2.
set -u
TUCANA_BIN=${TUCANA_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/build/bin}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
srcs=()
for a in "$@"; do
  if [ -d "$a" ]; then for f in "$a"/*.c "$a"/*.cpp; do [ -e "$f" ] && srcs+=("$(readlink -f "$f")"); done
  else srcs+=("$(readlink -f "$a")"); fi
done
[ ${#srcs[@]} -gt 0 ] || { echo "usage: $0 SOURCE..." >&2; exit 2; }
name=$(basename "${1%/}"); name=${name%.*}
cc=mpicc; tcc=$TUCANA_BIN/tucanacc; flags="-O1 -g"
for s in "${srcs[@]}"; do case "$s" in *.cpp|*.cc|*.cxx) cc=mpicxx; tcc=$TUCANA_BIN/tucanacxx; flags="-O1 -g -std=c++17";; esac; done
incdir=$(dirname "${srcs[0]}")
w=$(mktemp -d /tmp/tucana_adv.XXXXXX)
[ "${KEEP:-0}" = 1 ] && echo "workdir: $w" >&2 || trap 'rm -rf "$w"' EXIT
fail() { echo "FAIL $name: $*"; exit 1; }
# 1. native build
if ! $cc $flags -Wno-unknown-pragmas -I"$incdir" -o "$w/native" "${srcs[@]}" -lm >"$w/native.build" 2>&1; then
  echo "NOTE $name: native build failed (test bug)"; sed -n 1,20p "$w/native.build"; exit 2; fi
# 2. tucana build (translate + compile); distinguish translator from compiler errors
cd "$w"
if ! timeout 120 $tcc $flags --keep -I"$incdir" -o "$w/tucana" "${srcs[@]}" -lm >"$w/tucana.build" 2>&1; then
  if grep -q 'Error while processing\|could not be translated' "$w/tucana.build"; then kind="translator error"
  elif grep -q 'error' "$w/tucana.build"; then kind="generated code does not compile"
  else kind="build failed"; fi
  msg=$(grep -m1 'Assertion\|error:' "$w/tucana.build" | grep -v '^tucanac[cx]*: error' | head -1)
  [ -n "$msg" ] || msg=$(grep -m1 'error' "$w/tucana.build")
  fail "$kind: $(echo "$msg" | cut -c1-300)"
fi
# 3. runs
run() { # label cmd...
  local l=$1; shift
  timeout 60 "$@" >"$w/$l.out" 2>"$w/$l.err"; local rc=$?
  sort "$w/$l.out" >"$w/$l.sorted"
  echo $rc >"$w/$l.rc"
}
run ref mpirun -np 4 --oversubscribe "$w/native"
[ "$(cat "$w/ref.rc")" = 0 ] || { echo "NOTE $name: native run failed rc=$(cat "$w/ref.rc") (test bug)"; head -5 "$w/ref.err"; exit 2; }
[ -s "$w/ref.out" ] || { echo "NOTE $name: native run printed nothing (test bug)"; exit 2; }
cfgs=("1 4 1 1" "2 2 1 1")
# EXTRA=1: also several workers per process and several tasks per rank (still 4 ranks)
[ "${EXTRA:-0}" = 1 ] && cfgs+=("1 2 2 3" "2 1 2 2")
for cfg in "${cfgs[@]}"; do
  set -- $cfg; l="np$1vf$2w$3t$4"; desc="-np $1 --vf $2 --workers $3 --tasks $4"
  run "$l" "$TUCANA_BIN/tucana-run" -np "$1" --vf "$2" --workers "$3" --tasks "$4" "$w/tucana"
  rc=$(cat "$w/$l.rc")
  if [ "$rc" = 124 ]; then fail "hang (timeout 60 s) at $desc; $(grep -m1 -i 'error\|deadlock' "$w/$l.err" | cut -c1-200)"; fi
  if [ "$rc" != 0 ]; then fail "crash rc=$rc at $desc: $(grep -m1 -i 'error\|abort\|fault\|signal\|assert' "$w/$l.err" | cut -c1-250)"; fi
  if ! cmp -s "$w/ref.sorted" "$w/$l.sorted"; then
    fail "wrong output at $desc: $(diff "$w/ref.sorted" "$w/$l.sorted" | grep '^[<>]' | head -2 | tr '\n' ' ' | cut -c1-250)"; fi
done
w2=$(grep -c 'warning' "$w/np1vf4w1t1.err" "$w/tucana.build" 2>/dev/null | awk -F: '{s+=$2} END {print s+0}')
echo "PASS $name ($(wc -l <"$w/ref.out") lines; $w2 warnings)"
