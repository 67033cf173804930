#!/usr/bin/env bash
# run.sh: the real NAS IS (NPB3.4-MPI, ../shared/realapps beside the
# project) pipelined by `tucana-cco rewrite --mpi`, against the original, on
# the emulated interconnect (bench/harness/netns-run.sh).
#
#   original   is.c as published, mpicc -O2
#   cco        is.c with the pragma lines of annotate.sh, rewritten by
#              tucana-cco rewrite --mpi (rank() inlined, the timed loop
#              pipelined around MPI_Alltoallv), mpicc -O2
#
# Both must print Verification = SUCCESSFUL. Then, for each rank count, the
# two run --reps times interleaved (order alternating), each run in a fresh
# throttled namespace with IS's timers on (NPB_TIMER_FLAG=1), and the script
# prints the medians of timer 1 (the timed loop, slowest rank), the speedup
# (original / cco), and the bound:
# the original's communication share of the loop (its rcomm timer over its
# total timer, NPB_TIMER_FLAG=1 runs) and the speedup that hiding all of it
# behind the computation could give, total / max(total - rcomm, rcomm).
#
# usage: run.sh [--class W] [--np "2 4"] [--reps 7] [--rate 1gbit]
#               [--bin DIR] [--npb DIR] [--work DIR] [--keep]
# Exit status 0, or 77 when the NPB sources are absent, 1 on a failure.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="$root/build/bin" npb="$root/../shared/realapps/NPB3.4-MPI"
class=W nps="2 4" reps=7 rate=1gbit work="" keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --class) class=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --npb) npb=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option '$1'" >&2; exit 1 ;;
  esac
done
[ -f "$npb/IS/is.c" ] || { echo "SKIP: no NAS IS at $npb/IS/is.c"; exit 77; }
[ -x "$bin/tucana-cco" ] || { echo "run.sh: no tucana-cco in $bin (build first)" >&2; exit 1; }
if [ -z "$work" ]; then work=$(mktemp -d); [ $keep = 1 ] || trap 'rm -rf "$work"' EXIT; fi
fail() { echo "FAIL: $*"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

mkdir -p "$work/config" "$work/IS" "$work/sys"
cp "$npb/config/make.def.template" "$work/config/make.def"
cc -DFORTRAN_REC_SIZE=1 -o "$work/sys/setparams" "$npb/sys/setparams.c" || fail "setparams does not build"
(cd "$work/IS" && ../sys/setparams is "$class") || fail "setparams is $class"
cp "$npb/IS/is.c" "$work/IS/is.c"
"$here/annotate.sh" "$work/IS/is.c" "$work/IS/is_pragmas.c" || fail "annotate.sh"
flags=(-I "$work/IS" -I "$npb/common")
"$bin/tucana-cco" rewrite --mpi "$work/IS/is_pragmas.c" -o "$work/IS/is_cco.c" -- "${flags[@]}" | tee "$work/notes.txt" ||
  fail "tucana-cco rewrite"
grep -q "pipelined MPI_Alltoallv" "$work/notes.txt" || fail "the timed loop was not pipelined"
for v in is is_cco; do
  mpicc -O2 "${flags[@]}" -o "$work/$v" "$work/IS/$v.c" "$npb/common/c_print_results.c" "$npb/common/c_timers.c" -lm \
    2>/dev/null || fail "$v does not build"
done
over=()
mpirun --version 2>&1 | grep -qE "Open ?MPI|OpenRTE" && over=(--oversubscribe)
net="$root/bench/harness/netns-run.sh"
run() {  # run NP BINARY [ENV...]: IS's output, in a fresh throttled namespace
  local np=$1 b=$2
  shift 2
  env "$@" "$net" --rate "$rate" -- mpirun "${over[@]}" -np "$np" "$b" 2>/dev/null
}
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.4f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# IS's timers (NPB_TIMER_FLAG=1): "timer  1 (total   ):  min max avg", 4 decimals.
total() { awk '/timer +1 \(total/ { print $(NF - 1) }'; }   # the slowest rank's timed loop
share() { awk '/timer +1 \(total/ { t = $NF } /timer +3 \(rcomm/ { c = $NF } END { if (t > 0) print c / t }'; }
echo "NAS IS class $class, tbf $rate, $reps runs each, interleaved (timed loop: IS's timer 1, slowest rank)"
printf "%4s  %12s  %12s  %8s  %11s  %8s\n" np original_s cco_s speedup comm_share bound
for np in $nps; do
  for v in is is_cco; do
    out=$(run "$np" "$work/$v") || fail "$v at -np $np"
    grep -q "Verification *= *SUCCESSFUL" <<<"$out" || fail "$v does not verify at -np $np"
  done
  : >"$work/orig.$np" && : >"$work/cco.$np" && : >"$work/share.$np"
  for r in $(seq 1 "$reps"); do
    order="is is_cco"; [ $((r % 2)) = 0 ] && order="is_cco is"
    for v in $order; do
      out=$(run "$np" "$work/$v" NPB_TIMER_FLAG=1) || fail "$v at -np $np"
      grep -q "Verification *= *SUCCESSFUL" <<<"$out" || fail "$v does not verify at -np $np"
      if [ "$v" = is ]; then
        total <<<"$out" >>"$work/orig.$np"
        share <<<"$out" >>"$work/share.$np"   # rcomm over total, averages over the ranks
      else
        total <<<"$out" >>"$work/cco.$np"
      fi
    done
  done
  to=$(median <"$work/orig.$np") tc=$(median <"$work/cco.$np") sh=$(median <"$work/share.$np")
  awk -v np="$np" -v o="$to" -v c="$tc" -v s="$sh" 'BEGIN {
    m = (1 - s > s) ? 1 - s : s
    printf "%4d  %12.4f  %12.4f  %8.3f  %10.1f%%  %8.3f\n", np, o, c, o / c, 100 * s, 1 / m }'
done
