#!/usr/bin/env bash
# test_harness.sh [BUILD_DIR]: self-checks of the benchmark harness that need
# no benchmark programs: time parsing and hidden %, netns-run.sh, the
# synthetic trace through trace_picture.py, and (when BUILD_DIR has the
# jacobi3d example and tucana-run) one run_bench.py --quick run of it.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/../../build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_harness.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if "$@"; then echo "PASS: $*"; else echo "FAIL: $*"; fail=1; fi; }
py=/usr/bin/python3; [ -x $py ] || py=python3
export PYTHONDONTWRITEBYTECODE=1

# 1. parsing and hidden %
unit() {
  $py - "$here" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import run_bench as rb
assert rb.parse_time("x\ntime 1.25\nchecksum 3\n") == 1.25
assert rb.parse_time("ranks 2 (2 x 1 x 1) N 96 iterations 20 time 0.049320 s\n") == 0.04932
assert rb.parse_time("ranks 2 time 9 s\ntime 2.5\n") == 2.5          # a 'time' line wins
assert rb.parse_time("no time here\n") is None
assert rb.parse_checksum("checksum 22980.37\n") == "22980.37"
assert rb.parse_ok("a\njacobi3d: OK\n") == "ok"
assert rb.parse_ok("jacobi3d: FAILED (x)\n") == "failed"
g = {"mad": 0.0, "times": [1, 1, 1]}
h, note = rb.hidden(2.0, 1.5, 1.0, g, g)
assert abs(h - 50.0) < 1e-9 and note == "", (h, note)
h, note = rb.hidden(2.0, 1.5, 2.0, g, g)
assert h is None and "not faster" in note
h, note = rb.hidden(2.0, 1.99, 1.95, g, g)
assert "unreliable" in note
# every program solves one instance at every rank count (cannon and
# irregular take global sizes), so none needs a layout of its own
assert not any(i.get("rank_dependent") or i.get("square") for i in rb.PROGRAMS.values())
# hybrid: P ranks with V tasks each (tucana-run --tasks V), not P*V subranks
class O: mpirun = "mpirun"; mpirun_args = ""; tucana_run_args = ""
ctx = {"ncores": 2, "launcher": "openmpi", "tucana_run": "/b/bin/tucana-run"}
hy = rb.Job("jacobi3d", "hybrid", 2, 4, 1, "/b/j.hybrid", "8 8 8 2 1", True)
tu = rb.Job("jacobi3d", "tucana", 2, 4, 1, "/b/j.tucana", "8 8 8 2 1", True)
assert hy.ranks == 2 and tu.ranks == 8
cmd = rb.build_command(hy, O, ctx)
assert cmd[:5] == ["/b/bin/tucana-run", "-np", "2", "--tasks", "4"] and "--vf" not in cmd, cmd
assert cmd[-6:] == ["/b/j.hybrid", "8", "8", "8", "2", "1"], cmd
assert rb.build_command(tu, O, ctx)[3:5] == ["--vf", "4"]
assert rb.v_label("hybrid", "4") == " tasks 4" and rb.v_label("tucana", 2) == " VF 2"
assert rb.v_label("original", "") == ""
import tpod_sweep as ts
assert ts.parse_blocks("8, 16x8x4,whole") == [("8", [8, 8, 8]), ("16x8x4", [16, 8, 4]), ("whole", [0, 0, 0])]
m = ts.BLOCKS_RE.search("x\nblocks 8x8x8: 32x16x16 = 8192 per rank (rank 0), 512 with messages, order natural\n")
assert m and m.group(4) == "8192" and m.group(5) == "512"
assert ts.GRIND_RE.search("grind 1.2500 ns per point per step\n").group(1) == "1.2500"
print("unit checks ok")
PY
}
check unit

# 2. netns-run.sh: exit status passes through, a network line is printed
check bash -c "'$here/netns-run.sh' -- sh -c 'exit 3'; [ \$? = 3 ]"
check bash -c "'$here/netns-run.sh' --check 2>&1 | grep -q '^network: '"
check bash -c "'$here/netns-run.sh' --unthrottled --check 2>&1 | grep -q '^network: unthrottled'"

# 2b. tpod_sweep.py --dry-run: the original once and each block size per repetition
tpod_dry() {
  out=$($py "$here/tpod_sweep.py" --build "$tmp/nobuild" --dry-run --rate shm --reps 2 \
        --args "32 32 16 2" --blocks 8,whole --out "$tmp/tpod") || return 1
  [ "$(echo "$out" | grep -c 'tpod\.original 32 32 16 2 0 0 0$')" = 2 ] &&
    [ "$(echo "$out" | grep -c -- '--mpirun-args.*tpod\.hybrid 32 32 16 2 8 8 8 1$')" = 2 ] &&
    [ "$(echo "$out" | grep -c 'tpod\.hybrid 32 32 16 2 0 0 0 1$')" = 2 ]
}
check tpod_dry

# 2c. run_bench.py --dry-run: cannon and irregular run the native variants on
# --np ranks (one per core), and the whole VF sweep
layout_dry() {
  out=$($py "$here/run_bench.py" --build "$tmp/nobuild" --dry-run --rate shm --reps 1 \
        --programs cannon,irregular --variants original,nocomm,tucana --nocomm-lib /bin/true \
        --bin original=/bin/true --bin tucana=/bin/true --out "$tmp/layout") || return 1
  for prog in cannon irregular; do
    args=$(grep -o "\"$prog\": {\"args\": \"[^\"]*" "$here/run_bench.py" | sed 's/.*"//')
    [ "$(echo "$out" | grep -c -- "^mpirun -np 2 --bind-to core /bin/true $args\$")" = 1 ] || return 1
    [ "$(echo "$out" | grep -c -- "-np 2 --bind-to core -x LD_PRELOAD=/bin/true /bin/true $args\$")" = 1 ] || return 1
    for v in 1 2 4 8; do
      [ "$(echo "$out" | grep -c -- "tucana-run -np 2 --vf $v .*/bin/true $args\$")" = 1 ] || return 1
    done
  done
  ! echo "$out" | grep -q -- "--oversubscribe"
}
check layout_dry

# 3. trace_picture.py on a synthetic trace, whole and truncated
check $py "$here/tests/synthetic_trace.py" "$tmp/syn.json"
check $py "$here/trace_picture.py" "$tmp/syn.json" -o "$tmp/syn.svg" --quiet
check test -s "$tmp/syn.svg"
check $py "$here/tests/synthetic_trace.py" "$tmp/trunc.json" --truncate
check $py "$here/trace_picture.py" "$tmp/trunc.json" -o "$tmp/trunc.svg" --quiet
if $py -c "import matplotlib" 2>/dev/null; then
  check $py "$here/trace_picture.py" "$tmp/syn.json" -o "$tmp/syn.png" --quiet
  check test -s "$tmp/syn.png"
fi

# 4. run_bench.py --quick on the jacobi3d example, if built
ex=$build/examples/jacobi3d
if [ -x "$ex/jacobi3d.native" ] && [ -x "$ex/jacobi3d" ] && [ -x "$build/bin/tucana-run" ]; then
  check $py "$here/run_bench.py" --build "$build" --programs jacobi3d --quick --no-plots \
    --variants original,overlap,nocomm,tucana,virtualized \
    --bin original="$ex/jacobi3d.native" --bin overlap="$ex/jacobi3d.native" \
    --bin tucana="$ex/jacobi3d" --bin virtualized="$ex/jacobi3d" \
    --args jacobi3d="48 10" --out "$tmp/quick"
  check test "$(grep -c ',ok,' "$tmp/quick/results.csv")" = 5
  check grep -q "^| jacobi3d | tucana" "$tmp/quick/summary.md"
else
  echo "SKIP: run_bench.py --quick (no jacobi3d example in $build)"
fi
[ $fail = 0 ] && echo "test_harness.sh: all passed" || echo "test_harness.sh: FAILURES"
exit $fail
