#!/usr/bin/env bash
# run_coll.sh: times MPI collectives (Barrier, Bcast 8 B and 1 MiB, Allreduce
# 8 B and 1 MiB, Alltoall 1 KiB per pair) at 16 and 64 ranks: under Tucana on
# 2 processes, and on native MPI with as many processes as ranks
# (oversubscribed), runs of the two interleaved. Prints a Markdown table of
# the medians with the exact commands that produced them.
#
# usage: bench/run_coll.sh [BUILD_DIR]     (default ./build)
# Build first: cmake --build BUILD_DIR --target coll_bench_native coll_bench_tucana
# Environment:
#   REPS (default 5)          runs of each configuration
#   RANKS (default "16 64")   rank counts (each a multiple of 4)
#   CASE_SECONDS (default 0.3) time each case is timed for, per run (coll_bench -t)
#   NATIVE_MPIRUN (default mpirun) launches the native runs
#   RUN_TIMEOUT (default 300) seconds before one run is given up
#   RAW_RESULTS (optional)    file to keep every run's figures in ("config case ranks usec")
set -uo pipefail

build=${1:-./build}
bench="$build/bench"
tucana_run="$build/bin/tucana-run"
native_mpirun=${NATIVE_MPIRUN:-mpirun}
reps=${REPS:-5}
ranks_list=${RANKS:-16 64}
seconds=${CASE_SECONDS:-0.3}
run_timeout=${RUN_TIMEOUT:-300}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

for f in "$bench/coll_bench.native" "$bench/coll_bench.tucana" "$tucana_run"; do
  if [ ! -x "$f" ]; then
    echo "run_coll.sh: $f is missing; build it first:" >&2
    echo "  cmake --build $build --target coll_bench_native coll_bench_tucana" >&2
    exit 1
  fi
done
for n in $ranks_list; do
  if [ $((n % 4)) -ne 0 ] || [ "$n" -lt 4 ]; then
    echo "run_coll.sh: $n ranks: need a multiple of 4 (2 processes x 2 workers)" >&2
    exit 1
  fi
done

status=0
results=$(mktemp "${TMPDIR:-/tmp}/run_coll.XXXXXX")
log=$(mktemp "${TMPDIR:-/tmp}/run_coll_log.XXXXXX")
trap 'rm -f "$results" "$log"' EXIT

quote() { printf '%q ' "$@" | sed 's/ $//'; }

# The command of configuration CONFIG (native, w1, w2) at N ranks, in the array `cmd`.
make_cmd() {
  local config=$1 n=$2
  case $config in
    native) cmd=("$native_mpirun" --oversubscribe -np "$n" "$bench/coll_bench.native" -t "$seconds") ;;
    w1) cmd=("$tucana_run" -np 2 --vf $((n / 2)) "$bench/coll_bench.tucana" -t "$seconds") ;;
    w2) cmd=("$tucana_run" -np 2 --workers 2 --vf $((n / 4)) "$bench/coll_bench.tucana" -t "$seconds") ;;
  esac
}

# One run: appends "config case ranks usec" lines to $results.
one_run() {
  local config=$1 n=$2 cmd
  make_cmd "$config" "$n"
  echo "running: $(quote "${cmd[@]}")" >&2
  if ! timeout "$run_timeout" "${cmd[@]}" >"$log" 2>&1; then
    echo "run_coll.sh: failed (or timed out after ${run_timeout}s): $(quote "${cmd[@]}")" >&2
    tail -n 20 "$log" >&2
    status=1
  fi
  grep -E '^[a-z_0-9A-Z]+,[0-9]+,[0-9.]+$' "$log" | awk -F, -v c="$config" '{ print c, $1, $2, $3 }' >>"$results"
}

start=$(date +%s)
for n in $ranks_list; do
  for ((r = 1; r <= reps; ++r)); do
    # interleaved, the order rotated each repetition so that no configuration
    # always follows the same one
    case $((r % 3)) in
      1) order="native w1 w2" ;;
      2) order="w1 w2 native" ;;
      0) order="w2 native w1" ;;
    esac
    for config in $order; do one_run "$config" "$n"; done
  done
done
elapsed=$(($(date +%s) - start))
[ -n "${RAW_RESULTS:-}" ] && cp "$results" "$RAW_RESULTS"

# median CONFIG CASE N: the median over the runs, or "failed"
median() {
  awk -v c="$1" -v k="$2" -v n="$3" '$1 == c && $2 == k && $3 == n { print $4 }' "$results" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) print "failed"; else if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2];
                               else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "failed" || b == "failed" || b <= 0) print "-"; else printf "%.2f", a / b }'; }
count() { awk -v c="$1" -v k="$2" -v n="$3" '$1 == c && $2 == k && $3 == n' "$results" | wc -l; }

cases=$(awk '{ print $2 }' "$results" | awk '!seen[$0]++')

echo
echo "Tucana collectives on $(hostname), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ); ${elapsed} s in all"
echo "(median of $reps runs each, runs interleaved; per run, each case is timed for ${seconds} s and the"
echo "time per call is the slowest rank's mean; ratio = native / Tucana, > 1 means Tucana is faster;"
echo "Tucana = 2 processes x 1 worker, one thread per core like the 2 cores native MPI shares;"
echo "2 workers = 2 processes x 2 workers, for comparison)"
echo
echo "| Case | Ranks | Native median us | Tucana median us | Ratio | Tucana 2 workers median us | Ratio 2 workers |"
echo "|---|---|---|---|---|---|---|"
for n in $ranks_list; do
  for k in $cases; do
    nat=$(median native "$k" "$n")
    w1=$(median w1 "$k" "$n")
    w2=$(median w2 "$k" "$n")
    for c in native w1 w2; do
      got=$(count "$c" "$k" "$n")
      [ "$got" -ne "$reps" ] && echo "run_coll.sh: $c $k $n: $got of $reps runs gave a figure" >&2 && status=1
    done
    echo "| $k | $n | $nat | $w1 | $(ratio "$nat" "$w1") | $w2 | $(ratio "$nat" "$w2") |"
  done
done
echo
echo "Commands:"
echo
for n in $ranks_list; do
  for c in native w1 w2; do
    make_cmd "$c" "$n"
    echo "    $(quote "${cmd[@]}")"
  done
done
exit $status
