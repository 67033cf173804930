#!/usr/bin/env bash
# run_micro.sh: runs Tucana's micro-benchmarks (fiber switches, park/unpark,
# MPI ping-pong within a process, between processes, and native MPI for
# comparison) and prints a Markdown table of the figures with the exact
# commands that produced them.
#
# usage: bench/run_micro.sh [BUILD_DIR]     (default ./build)
# Build first: cmake --build BUILD_DIR --target fiber_bench mpi_pingpong_native mpi_pingpong_tucana
# Environment: NATIVE_MPIRUN (default mpirun) launches the native runs.
set -uo pipefail

build=${1:-./build}
bench="$build/bench"
tucana_run="$build/bin/tucana-run"
native_mpirun=${NATIVE_MPIRUN:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

for f in "$bench/fiber_bench" "$bench/mpi_pingpong.native" "$bench/mpi_pingpong.tucana" "$tucana_run"; do
  if [ ! -x "$f" ]; then
    echo "run_micro.sh: $f is missing; build it first:" >&2
    echo "  cmake --build $build --target fiber_bench mpi_pingpong_native mpi_pingpong_tucana" >&2
    exit 1
  fi
done

status=0
rows=()
log=$(mktemp "${TMPDIR:-/tmp}/run_micro.XXXXXX")
trap 'rm -f "$log"' EXIT

quote() { printf '%q ' "$@" | sed 's/ $//'; }
row() { rows+=("| $1 | $2 | $3 | \`$4\` |"); }
# verdict VALUE OP LIMIT: "ok" or "missed" (OP is <= or >=)
verdict() { awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN { ok = (op == "<=") ? v <= l : v >= l; print ok ? "ok" : "**missed**" }'; }

# ---- fiber_bench (Google Benchmark), median of 5 repetitions
fb_cmd=("$bench/fiber_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
        --benchmark_format=csv)
echo "running: $(quote "${fb_cmd[@]}")" >&2
if "${fb_cmd[@]}" >"$log" 2>/dev/null; then
  # median real time (ns) of a benchmark, from the CSV (name,iterations,real_time,...)
  median_ns() { awk -F, -v n="\"$1_median\"" '$1 == n { printf "%.1f", $3 }' "$log"; }
  yield_ns=$(median_ns BM_FiberYieldRoundTrip)
  raw_ns=$(median_ns BM_RawFcontextSwitchPair)
  nested_ns=$(median_ns BM_RawFcontextSwitchNested/3)
  park_ns=$(median_ns BM_ParkUnparkPingPong)
  cross_ns=$(median_ns BM_ParkUnparkCrossWorker/real_time)
  cmd=$(quote "${fb_cmd[@]}")
  row "Fiber yield round trip (2 switches, 1 worker)" "$yield_ns ns" "<= 50 ns: $(verdict "$yield_ns" "<=" 50)" "$cmd"
  row "Raw jump_fcontext switch pair (reference)" "$raw_ns ns" "" "$cmd"
  row "Raw switch pair, 3 returns after each switch (like yield's call depth)" "$nested_ns ns" "" "$cmd"
  row "park/unpark ping-pong round trip, same worker" "$park_ns ns" "" "$cmd"
  row "park/unpark ping-pong round trip, 2 workers" "$cross_ns ns" "" "$cmd"
else
  echo "run_micro.sh: fiber_bench failed" >&2
  row "fiber_bench" "failed" "" "$(quote "${fb_cmd[@]}")"
  status=1
fi

# ---- MPI ping-pong: prints "pingpong bytes=.. iters=.. reps=.. latency_us=.. bandwidth_MBps=.."
# pingpong VAR_PREFIX COMMAND...: sets <prefix>_lat, <prefix>_bw and <prefix>_cmd
pingpong() {
  local prefix=$1
  shift
  local out line
  echo "running: $(quote "$@")" >&2
  out=$("$@" 2>&1)
  line=$(grep '^pingpong ' <<<"$out" | tail -n 1)
  printf -v "${prefix}_cmd" '%s' "$(quote "$@")"
  if [ -z "$line" ]; then
    echo "run_micro.sh: no result from: $(quote "$@")" >&2
    echo "$out" | tail -n 20 >&2
    printf -v "${prefix}_lat" '%s' "failed"
    printf -v "${prefix}_bw" '%s' "failed"
    status=1
    return
  fi
  printf -v "${prefix}_lat" '%s' "$(sed -E 's/.* latency_us=([0-9.]+).*/\1/' <<<"$line")"
  printf -v "${prefix}_bw" '%s' "$(sed -E 's/.*bandwidth_MBps=([0-9.]+).*/\1/' <<<"$line")"
}

pingpong intra8 "$tucana_run" -np 1 --vf 2 "$bench/mpi_pingpong.tucana" 8 100000
pingpong intra4m "$tucana_run" -np 1 --vf 2 "$bench/mpi_pingpong.tucana" 4194304 200
pingpong inter8 "$tucana_run" -np 2 --vf 1 "$bench/mpi_pingpong.tucana" 8 10000
pingpong native8 "$native_mpirun" -np 2 "$bench/mpi_pingpong.native" 8 10000
pingpong inter4m "$tucana_run" -np 2 --vf 1 "$bench/mpi_pingpong.tucana" 4194304 100
pingpong native4m "$native_mpirun" -np 2 "$bench/mpi_pingpong.native" 4194304 100

row "MPI ping-pong 8 B, 2 subranks in 1 process (latency)" "$intra8_lat us" \
    "<= 0.5 us: $(verdict "$intra8_lat" "<=" 0.5)" "$intra8_cmd"
row "MPI ping-pong 4 MiB, 2 subranks in 1 process (bandwidth)" "$intra4m_bw MB/s ($intra4m_lat us)" "" "$intra4m_cmd"
row "MPI ping-pong 8 B, 2 processes, Tucana (latency)" "$inter8_lat us" "" "$inter8_cmd"
row "MPI ping-pong 8 B, 2 processes, native MPI (latency)" "$native8_lat us" "" "$native8_cmd"
if [ "$inter8_lat" != failed ] && [ "$native8_lat" != failed ]; then
  overhead=$(awk -v a="$inter8_lat" -v b="$native8_lat" 'BEGIN { printf "%.3f", a - b }')
  row "Tucana overhead over native MPI, 8 B between processes" "$overhead us" \
      "<= 1 us: $(verdict "$overhead" "<=" 1)" "(difference of the two rows above)"
fi
row "MPI ping-pong 4 MiB, 2 processes, Tucana (bandwidth)" "$inter4m_bw MB/s ($inter4m_lat us)" "" "$inter4m_cmd"
row "MPI ping-pong 4 MiB, 2 processes, native MPI (bandwidth)" "$native4m_bw MB/s ($native4m_lat us)" "" "$native4m_cmd"

echo
echo "Tucana micro-benchmarks on $(hostname), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "(fiber_bench: median of 5 repetitions; ping-pong: median of 7 repetitions, latency = half round trip)"
echo
echo "| Benchmark | Result | Target | Command |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $status
