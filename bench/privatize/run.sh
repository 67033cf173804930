#!/usr/bin/env bash
# The cost of privatization: bench/privatize/globals_kernel.c built with
# tucanacc -O2, privatized (the default) and with --privatize=no, run
# alternately RUNS times (default 11) under tucana-run with SUBRANKS subranks
# in one process (default 4: each has its own copy when privatized; shared,
# they all update the same globals, which is wrong but costs the same
# memory traffic per subrank). Prints the medians and the ratios.
# usage: bench/privatize/run.sh [BUILD_DIR] [RUNS] [SUBRANKS] [N] [SWEEPS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${2:-11}
subranks=${3:-4}
n=${4:-100000}
sweeps=${5:-200}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$build/bin/tucanacc" -O2 "$here/globals_kernel.c" -o "$work/private"
"$build/bin/tucanacc" -O2 --privatize=no --no-global-warnings -DSHARED_GLOBALS "$here/globals_kernel.c" -o "$work/shared"
for ((r = 0; r < runs; r++)); do
  for v in private shared; do
    "$build/bin/tucana-run" -np 1 --vf "$subranks" "$work/$v" "$n" "$sweeps" | awk -v v=$v '/^loop/ { print v, $2, $5 }'
  done
done >"$work/times"
awk -v runs="$runs" '
  function median(a, k,   i, j, t) {
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  { n[$1]++; loop[$1, n[$1]] = $2; acc[$1, n[$1]] = $3 }
  END {
    for (v in n) { for (i = 1; i <= n[v]; i++) { l[i] = loop[v, i]; a[i] = acc[v, i] } ml[v] = median(l, n[v]); ma[v] = median(a, n[v]) }
    printf "loop:     privatized %.4f s, shared %.4f s, ratio %.3f (median of %d)\n", ml["private"], ml["shared"], ml["private"] / ml["shared"], runs
    printf "accessor: privatized %.4f s, shared %.4f s, ratio %.3f (median of %d)\n", ma["private"], ma["shared"], ma["private"] / ma["shared"], runs
  }' "$work/times"
