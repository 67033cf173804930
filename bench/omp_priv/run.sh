#!/usr/bin/env bash
# An OpenMP loop over privatized arrays against --privatize=no: the medians
# of RUNS runs each, alternating. Usage: bench/omp_priv/run.sh [BUILD_DIR]
# (default build); env RUNS (default 7), LAYOUT (default "-np 1 --vf 2"),
# OMP_NUM_THREADS (default: tucana-run's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
runs=${RUNS:-7}
layout=${LAYOUT:--np 1 --vf 2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/tucanacc" -O2 -fopenmp -o "$work/priv" "$here/omp_priv.c"
"$build/bin/tucanacc" -O2 -fopenmp --privatize=no --no-global-warnings -o "$work/shared" "$here/omp_priv.c"
for ((i = 0; i < runs; i++)); do
  for v in priv shared; do
    # shellcheck disable=SC2086
    "$build/bin/tucana-run" $layout "$work/$v" 2>/dev/null | awk '/^time/ { print $2 }' >>"$work/$v.times"
  done
done
median() { sort -g "$1" | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }
p=$(median "$work/priv.times"); s=$(median "$work/shared.times")
awk -v p="$p" -v s="$s" -v r="$runs" -v l="$layout" 'BEGIN {
  printf "omp_priv (%s, %d runs): privatized %.4f s, --privatize=no %.4f s: %+.1f%%\n", l, r, p, s, (p / s - 1) * 100 }'
