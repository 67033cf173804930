#!/usr/bin/env bash
# run.sh: build LULESH 2.0 three ways and check that Tucana computes what plain
# MPI computes (docs/lulesh.md).
#
#   original     mpicxx -DUSE_MPI=1 -DUSE_OMP=0 -O2, run with mpirun -np N
#   virtualized  the unannotated sources with tucanacxx (no superblock: every
#                MPI call runs in program order on Tucana's subranks)
#   tucana       the sources annotated by annotate.sh, translated by tucanacxx
#
# For every rank count N (a cube: 8, 27, ...) the original runs on N ranks and
# each Tucana variant runs N subranks in every layout of --layouts; the lines
# LULESH prints at the end (problem size, MPI tasks, iteration count, final
# origin energy, the three symmetry differences) must be identical.
#
# usage: run.sh [options]
#   --bin DIR        Tucana's bin directory (tucanacxx, tucana-run);
#                    default: build/bin of this checkout
#   --lulesh DIR     LULESH sources; default: ../shared/realapps/LULESH
#                    beside the project
#   --work DIR       build directory (default: a fresh mktemp -d, removed at
#                    the end unless --keep)
#   --keep           keep --work
#   --mpicxx CMD     the system's MPI C++ wrapper (default mpicxx)
#   --mpirun CMD     the system's launcher (default mpirun)
#   -s S, -i I       LULESH's size per domain and iteration count (6, 20)
#   --layouts LIST   space-separated N:P:V (tucana-run -np P --vf V) or
#                    N:P:vranks (tucana-run -np P --vranks N);
#                    default "8:1:8 8:2:4 27:1:27 27:2:vranks"
#   --variants LIST  comma-separated subset of virtualized,tucana
#                    (default: both; the original always runs)
#   --build-only     build the variants and stop
#   --tucana-run-args "..."  more options for tucana-run
# Prints one "ok:" or "FAIL:" line per comparison and "P passed, F failed";
# exit status 0 when nothing failed, 77 when the LULESH sources are missing.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="$root/build/bin"
lulesh="$root/../shared/realapps/LULESH"
work=""
keep=0
mpicxx=mpicxx
mpirun=mpirun
size=6
iters=20
layouts="8:1:8 8:2:4 27:1:27 27:2:vranks"
variants="virtualized,tucana"
build_only=0
trargs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --lulesh) lulesh=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --mpicxx) mpicxx=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    -s) size=$2; shift 2 ;;
    -i) iters=$2; shift 2 ;;
    --layouts) layouts=$2; shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --tucana-run-args) trargs=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ ! -f "$lulesh/lulesh.cc" ]; then
  echo "run.sh: skipped: no LULESH sources in $lulesh"
  exit 77
fi
for t in tucanacxx tucana-run; do
  [ -x "$bin/$t" ] || { echo "run.sh: $bin/$t not found (build Tucana, or give --bin)" >&2; exit 1; }
done
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/lulesh.XXXXXX")
  [ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
oversub=""
if "$mpirun" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi
passes=0
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

# build NAME CXX SRC_DIR: LULESH's own Makefile, in a copy, -O2, no OpenMP.
build() {
  local name=$1 cxx=$2 src=$3 dir="$work/$1"
  mkdir -p "$dir"
  cp "$src"/*.cc "$src"/*.h "$src"/Makefile "$dir/"
  if make -C "$dir" CXX="$cxx -DUSE_MPI=1" CXXFLAGS="-O2 -I. -DUSE_OMP=0 -Wno-unknown-pragmas" \
       LDFLAGS=-O2 -j 2 >"$dir/build.log" 2>&1 && [ -x "$dir/lulesh2.0" ]; then
    echo "built: $name ($cxx): $dir/lulesh2.0"
    return 0
  fi
  fail "build of $name ($cxx)"
  tail -40 "$dir/build.log" | sed 's/^/    /'
  return 1
}

if ! "$here/annotate.sh" "$lulesh" "$work/annotated-src"; then
  fail "annotate.sh"
  echo "$passes passed, $failures failed"
  exit 1
fi
build original "$mpicxx" "$lulesh" || { echo "$passes passed, $failures failed"; exit 1; }
declare -A have
for v in ${variants//,/ }; do
  case $v in
    virtualized) build virtualized "$bin/tucanacxx" "$lulesh" && have[$v]=1 ;;
    # --keep leaves lulesh.tucana.cc (the translation) next to the objects.
    tucana) build tucana "$bin/tucanacxx --keep" "$work/annotated-src" && have[$v]=1 ;;
    *) echo "run.sh: unknown variant '$v'" >&2; exit 2 ;;
  esac
done
[ $build_only = 1 ] && { echo "$passes passed, $failures failed"; [ $failures -eq 0 ]; exit; }

pattern='Problem size|MPI tasks|Iteration count|Final Origin Energy|MaxAbsDiff|TotalAbsDiff|MaxRelDiff'
args=(-s "$size" -i "$iters")
declare -A ran
for layout in $layouts; do
  IFS=: read -r n np vf <<<"$layout"
  ref="$work/original.n$n.log"
  if [ -z "${ran[$n]:-}" ]; then
    ran[$n]=1
    "$mpirun" -np "$n" $oversub "$work/original/lulesh2.0" "${args[@]}" >"$ref" 2>&1
    if ! grep -q "Final Origin Energy" "$ref"; then
      fail "original, $n ranks (mpirun -np $n): no final energy"
      tail -15 "$ref" | sed 's/^/    /'
    else
      echo "original: $n ranks: $(grep -E 'Final Origin Energy' "$ref" | tr -s ' ')"
    fi
  fi
  if [ "$vf" = vranks ]; then lay=(--vranks "$n"); desc="-np $np --vranks $n"; else lay=(--vf "$vf"); desc="-np $np --vf $vf"; fi
  if [ "$vf" != vranks ] && [ $((np * vf)) -ne "$n" ]; then
    echo "run.sh: layout $layout: $np x $vf is not $n" >&2; exit 2
  fi
  for v in virtualized tucana; do
    [ -n "${have[$v]:-}" ] || continue
    log="$work/$v.n$n.np$np.log"
    # shellcheck disable=SC2086
    "$bin/tucana-run" -np "$np" "${lay[@]}" $trargs "$work/$v/lulesh2.0" "${args[@]}" >"$log" 2>&1
    rc=$?
    a=$(grep -E "$pattern" "$ref")
    b=$(grep -E "$pattern" "$log")
    if [ $rc -eq 0 ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
      passes=$((passes + 1))
      echo "ok: $v, $n subranks (tucana-run $desc): $(grep -E 'Final Origin Energy' "$log" | tr -s ' ')"
    else
      fail "$v, $n subranks (tucana-run $desc), exit $rc"
      echo "  plain MPI (mpirun -np $n):"; grep -E "$pattern" "$ref" | sed 's/^/    /'
      echo "  Tucana:"; tail -25 "$log" | sed 's/^/    /'
    fi
  done
done
echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
