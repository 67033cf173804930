#!/usr/bin/env bash
# The idle policy (docs/performance.md, "Idle workers"): the annotated
# jacobi3d of bench/programs, translated and compiled once with BUILD's
# tucanacc, linked against BUILD's runtime ("new") and, when BASE_RUNTIME
# (the runtime/ directory of another build tree, e.g. of an earlier commit)
# is given, against that one too ("base"), run alternately RUNS times
# (default 7) inside netns-run.sh (1 gbit emulated network) at three
# layouts of the same 8 subranks on 2 processes:
#   --workers 1 --vf 4   as many worker threads as cores (on 2 cores)
#   --workers 2 --vf 2   twice as many
#   --workers 4 --vf 1   four times as many
# and, for the "new" runtime, with the oversubscription detection overridden
# (TUCANA_OVERSUBSCRIBED=0: idle workers spin while messages are in flight,
# as when each has a core). Prints the median time of the timed loop per
# layout and variant, and the ratios to "new".
# usage: bench/idle/run.sh [BUILD_DIR] [RUNS] [BASE_RUNTIME] [JACOBI3D_ARGS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${2:-7}
base=${3:-}
args=${4:-256 256 128 50 1}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

"$build/bin/tucanacc" -O2 -c "$root/bench/programs/jacobi3d/jacobi3d_annotated.c" -o "$work/jacobi3d.o"
# tucanacc's link line, with BUILD's runtime directory or BASE_RUNTIME.
link=$("$build/bin/tucanacc" -showme:link)
link_with() {  # RUNTIME_DIR OUTPUT
  local flags=${link//-L$build\/runtime/-L$1}
  # (the program's object between the entry library and the runtime, as tucanacc links)
  # shellcheck disable=SC2086
  c++ -O2 ${flags/-ltucana_main /-ltucana_main $work/jacobi3d.o } -lm -o "$2"
}
link_with "$build/runtime" "$work/new"
variants=(new spin)
if [ -n "$base" ]; then
  link_with "$(cd "$base" && pwd)" "$work/base"
  variants=(base new spin)
fi

layouts=("1 4" "2 2" "4 1")
for ((r = 0; r < runs; r++)); do
  for layout in "${layouts[@]}"; do
    read -r w v <<<"$layout"
    for var in "${variants[@]}"; do
      bin=$work/$var
      env=()
      [ "$var" = spin ] && { bin=$work/new; env=(-x TUCANA_OVERSUBSCRIBED=0); }
      # shellcheck disable=SC2086
      t=$("$root/bench/harness/netns-run.sh" -- "$build/bin/tucana-run" -np 2 --workers "$w" --vf "$v" \
            "${env[@]}" "$bin" $args 2>/dev/null | awk '/^time/ { print $2 }')
      echo "w$w $var ${t:-nan}"
    done
  done
done >"$work/times"
awk '
  function median(a, k,   i, j, t) {
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  { k = $1 " " $2; n[k]++; x[k, n[k]] = $3; layouts[$1] = 1; vars[$2] = 1 }
  END {
    for (k in n) { for (i = 1; i <= n[k]; i++) a[i] = x[k, i]; m[k] = median(a, n[k]) }
    for (l in layouts) {
      line = sprintf("%s (%d threads on 2 processes):", l == "w1" ? "--workers 1" : l == "w2" ? "--workers 2" : "--workers 4", 2 * substr(l, 2))
      for (v in vars) line = line sprintf("  %s %.3f s (%.3f)", v, m[l " " v], m[l " " v] / m[l " new"])
      print line
    }
  }' "$work/times" | sort
echo "(median of $runs runs each; in parentheses: the ratio to new)"
