#!/usr/bin/env bash
# run_scale.sh: how time and memory grow with subranks per process and with
# processes (docs/performance.md, "How the cost grows with subranks and
# processes"). Runs bench/scale_bench.c and bench/coll_bench.c under
# tucana-run and prints a Markdown table of medians with the commands.
#
# usage: bench/run_scale.sh [BUILD_DIR]     (default ./build)
# Build first: cmake --build BUILD_DIR --target scale_bench_tucana coll_bench_tucana
# Environment:
#   REPS (default 3)                 runs of each configuration (the median is shown)
#   VFS (default "1 4 16 64 256 1024 4096")  subranks per process, at 2 processes
#   PROCS (default "2 4 8")          process counts for the 1,024-rank runs
#   PARTS (default "vf procs modes") which sweeps to run
#   RUN_TIMEOUT (default 300)        seconds before one run is given up
#   RAW_RESULTS (optional)           file to keep every run's figures in
set -uo pipefail

build=${1:-./build}
bench="$build/bench"
tucana_run="$build/bin/tucana-run"
reps=${REPS:-3}
vfs=${VFS:-1 4 16 64 256 1024 4096}
procs=${PROCS:-2 4 8}
parts=${PARTS:-vf procs modes}
run_timeout=${RUN_TIMEOUT:-300}
raw=${RAW_RESULTS:-/dev/null}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

for f in "$bench/scale_bench.tucana" "$bench/coll_bench.tucana" "$tucana_run"; do
  if [ ! -x "$f" ]; then
    echo "run_scale.sh: $f is missing; build it first:" >&2
    echo "  cmake --build $build --target scale_bench_tucana coll_bench_tucana" >&2
    exit 1
  fi
done

status=0
log=$(mktemp "${TMPDIR:-/tmp}/run_scale.XXXXXX")
trap 'rm -f "$log" "$log".*' EXIT
rows=()
quote() { printf '%q ' "$@" | sed 's/ $//'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# field NAME FILE: the values of NAME=... on the lines of FILE
field() { grep -o "$1=[0-9.]*" "$2" | cut -d= -f2; }

# run LABEL ENV... -- tucana-run args...: REPS runs; keeps each run's output
# in $log.N and its wall seconds in $log.wall.
run() {
  local label=$1
  shift
  local env=()
  while [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift
  : >"$log.wall"
  for ((i = 0; i < reps; ++i)); do
    local t0 t1
    t0=$(date +%s.%N)
    if ! env "${env[@]}" timeout "$run_timeout" "$tucana_run" "$@" >"$log.$i" 2>&1; then
      echo "run_scale.sh: failed: ${env[*]} $(quote "$tucana_run" "$@")" >&2
      tail -5 "$log.$i" >&2
      status=1
    fi
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$log.wall"
    sed "s/^/$label run $i: /" "$log.$i" >>"$raw"
  done
  cmd="${env[*]}${env[*]:+ }tucana-run $*"
}
# med NAME: the median over the runs of NAME=... (for memory: the mean
# over the processes of each run first)
med() {
  for ((i = 0; i < reps; ++i)); do
    field "$1" "$log.$i" | awk '{ s += $1; n++ } END { if (n) print s / n }'
  done | median
}

# ---- subranks per process, at 2 processes, 1 worker
if [[ " $parts " == *" vf "* ]]; then
  rows+=("| VF (subranks per process) | start-up of an empty program, s | VmHWM per process, MiB | per subrank beyond the first VF, KiB | ring hop in a process, ns | ping-pong 8 B between processes, us | path |")
  rows+=("|---|---|---|---|---|---|---|")
  for vf in $vfs; do
    n=$((2 * vf))
    run "empty vf=$vf" -- -np 2 --vf "$vf" "$bench/scale_bench.tucana" empty
    start=$(median <"$log.wall")
    hwm=$(med vmhwm_kb)
    empty_cmd=$cmd
    rounds=$((200000 / vf)); [ "$rounds" -lt 10 ] && rounds=10
    run "ring vf=$vf" -- -np 2 --vf "$vf" "$bench/scale_bench.tucana" ring "$rounds"
    hop=$(med hop_ns)
    run "pingpong vf=$vf" -- -np 2 --vf "$vf" "$bench/scale_bench.tucana" pingpong 8 5000
    pp=$(med latency_us)
    path=tag; [ "$vf" -gt 128 ] && path=envelope
    # (VmHWM - VmHWM at the first VF) / (VF - the first VF): what one more subrank costs
    if [ -z "${hwm_first:-}" ]; then hwm_first=$hwm; vf_first=$vf; fi
    per=$(awk -v k="$hwm" -v k0="$hwm_first" -v v="$vf" -v v0="$vf_first" 'BEGIN { if (v > v0) printf "%.1f", (k - k0) / (v - v0); else print "-" }')
    rows+=("| $vf | $start | $(awk -v k="$hwm" 'BEGIN { printf "%.1f", k / 1024 }') | $per | $hop | $pp | $path |")
    echo "vf=$vf start=$start hwm_kb=$hwm hop_ns=$hop pingpong_us=$pp ($empty_cmd)" >&2
  done
fi

# ---- 1,024 ranks over 2, 4, 8 processes (VF 512, 256, 128)
if [[ " $parts " == *" procs "* ]]; then
  rows+=("" "| processes x VF (1,024 ranks) | start-up, s | VmHWM per process, MiB | MPI_Barrier, us | MPI_Allreduce 8 B, us | ping-pong 8 B, us | path |")
  rows+=("|---|---|---|---|---|---|---|")
  for p in $procs; do
    vf=$((1024 / p))
    run "empty np=$p" -- -np "$p" --vf "$vf" "$bench/scale_bench.tucana" empty
    start=$(median <"$log.wall")
    hwm=$(med vmhwm_kb)
    run "coll np=$p" -- -np "$p" --vf "$vf" "$bench/coll_bench.tucana" -c barrier,allreduce8 -t 0.3
    bar=$(for ((i = 0; i < reps; ++i)); do awk -F, '$1 == "barrier" { print $3 }' "$log.$i"; done | median)
    ar=$(for ((i = 0; i < reps; ++i)); do awk -F, '$1 == "allreduce_8B" { print $3 }' "$log.$i"; done | median)
    run "pingpong np=$p" -- -np "$p" --vf "$vf" "$bench/scale_bench.tucana" pingpong 8 5000
    pp=$(med latency_us)
    path=tag; [ "$vf" -gt 128 ] && path=envelope
    rows+=("| $p x $vf | $start | $(awk -v k="$hwm" 'BEGIN { printf "%.1f", k / 1024 }') | $bar | $ar | $pp | $path |")
    echo "np=$p start=$start hwm_kb=$hwm barrier=$bar allreduce8=$ar pingpong_us=$pp" >&2
  done
fi

# ---- the same layout with the ids in the tag and in envelopes
if [[ " $parts " == *" modes "* ]]; then
  rows+=("" "| ping-pong between processes, 2 x 64 subranks | tag, us | envelope (TUCANA_ENVELOPES=1), us |")
  rows+=("|---|---|---|")
  for bytes in 8 1024 16384 65536 1048576; do
    iters=2000; [ "$bytes" -ge 65536 ] && iters=300
    run "pingpong $bytes tag" -- -np 2 --vf 64 "$bench/scale_bench.tucana" pingpong "$bytes" "$iters"
    tag=$(med latency_us)
    run "pingpong $bytes envelope" TUCANA_ENVELOPES=1 -- -np 2 --vf 64 "$bench/scale_bench.tucana" pingpong "$bytes" "$iters"
    env=$(med latency_us)
    rows+=("| $bytes B | $tag | $env |")
    echo "bytes=$bytes tag=$tag envelope=$env" >&2
  done
fi

echo "Medians of $reps runs; $(nproc) cores, $(date -u +%Y-%m-%d)."
echo
printf '%s\n' "${rows[@]}"
echo
echo "Commands (BUILD=$build): tucana-run -np 2 --vf VF scale_bench.tucana empty | ring ROUNDS | pingpong BYTES ITERS;"
echo "tucana-run -np P --vf 1024/P coll_bench.tucana -c barrier,allreduce8 -t 0.3"
exit $status
