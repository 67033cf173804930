#!/usr/bin/env bash
# Times tucana-translate on a generated annotated input of LINES lines
# (default 5000): median and range of RUNS runs (default 7) of the whole
# process, after one warm-up run. Target: <= 1 s.
# usage: bench/translate_bench.sh [BUILD_DIR] [LINES] [RUNS]
set -euo pipefail
build=${1:-build}
lines=${2:-5000}
runs=${3:-7}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/gen_annotated.sh" "$lines" >"$work/big.c"
actual=$(wc -l <"$work/big.c")
superblocks=$(grep -c "pragma tucana superblock" "$work/big.c")
translate=("$build/bin/tucana-translate" -o "$work/out.c" "$work/big.c" --)
"${translate[@]}"  # warm-up, and it must succeed
times=()
for ((r = 0; r < runs; r++)); do
  start=$(date +%s%N)
  "${translate[@]}"
  end=$(date +%s%N)
  times+=("$(((end - start) / 1000))")  # microseconds
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
pick() { awk -v us="$1" 'BEGIN { printf "%.3f", us / 1e6 }'; }
median=$(pick "$(echo "$sorted" | sed -n "$(((runs + 1) / 2))p")")
min=$(pick "$(echo "$sorted" | head -n 1)")
max=$(pick "$(echo "$sorted" | tail -n 1)")
echo "translate $actual lines ($superblocks superblocks): median $median s (min $min, max $max, $runs runs)"
echo "command: ${translate[*]}"
# The output must compile.
"$build/bin/tucanacc" --no-translate --no-global-warnings -c -o "$work/out.o" "$work/out.c"
echo "translated output compiles"
