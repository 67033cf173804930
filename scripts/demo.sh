#!/usr/bin/env bash
# The demo: the annotated 3D Jacobi (bench/programs/jacobi3d) is translated by
# tucana-translate, built with tucanacc, and run on 2 processes x 4 subranks
# over an emulated interconnect (loopback throttled to 1 gbit in a private
# network namespace), next to the original MPI program and to the original
# with its communication suppressed (NoComm). It prints the times and how much
# of the communication Tucana hid:
#   hidden % = 100 * (T_original - T_tucana) / (T_original - T_nocomm)
# Usage: scripts/demo.sh [REPETITIONS]   (default 5; under a minute once built)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TUCANA_ROOT"

reps=${1:-5}
scripts/setup-deps.sh
echo "== building Tucana (build/)"
mkdir -p build  # a fresh clone has none: the build log goes there
build_tree build >build/demo-build.log 2>&1 || { tail -30 build/demo-build.log; exit 1; }

src=bench/programs/jacobi3d/jacobi3d_annotated.c
echo
echo "== translating $src"
mkdir -p build/demo
build/bin/tucana-translate -o build/demo/jacobi3d_translated.c "$src" --
grep -c "tucana: superblock" build/demo/jacobi3d_translated.c | sed 's/^/   superblocks translated: /'
grep -m1 "tucana: superblock" build/demo/jacobi3d_translated.c | sed 's/^ */   /'
echo "   (the whole translation: build/demo/jacobi3d_translated.c)"

echo
echo "== running original, nocomm and tucana over the throttled loopback, $reps repetitions each"
# --subrank-layout: the 4 subranks of each process tile the face between the
# two processes (the same problem; see docs/benchmarks.md).
/usr/bin/env python3 bench/harness/run_bench.py --build build --programs jacobi3d \
  --variants original,nocomm,tucana --np 2 --vf 4 --reps "$reps" --no-sweep --no-plots \
  --subrank-layout --out build/demo/results | grep -E "^(network|\[)|network:" || true

summary=build/demo/results/summary.csv
logs=build/demo/results/logs
echo
echo "== the program's own result (first repetition of each)"
for v in original tucana; do
  log=$(ls "$logs"/jacobi3d."$v".*rep1.log | head -n 1)
  printf '   %-9s %s, %s\n' "$v" "$(grep -m1 '^checksum' "$log")" "$(grep -m1 ': OK' "$log" || echo 'self-check FAILED')"
done
echo
echo "== result (median times of the timed loop; details in build/demo/results/summary.md)"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { t[$col["variant"]] = $col["median_s"]; h[$col["variant"]] = $col["hidden_pct"] }
         END {
           printf "   original %.3f s   nocomm %.3f s   tucana %.3f s (2 processes x 4 subranks)\n", t["original"], t["nocomm"], t["tucana"]
           printf "   Tucana hid %s%% of the communication time\n", h["tucana"]
         }' "$summary"
