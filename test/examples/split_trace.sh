#!/bin/sh
# The split compute region of examples/heat2d_split runs its interior before
# its messages arrive: the trace of a run has one "split" span (the
# interior, from tucana_sb_split_clear to tucana_sb_await_deps) per
# iteration of every subrank, and the program still prints its OK.
#
# usage: split_trace.sh TUCANA_RUN BIN WORKDIR
set -u
run=$1 bin=$2 dir=$3
trace="$dir/split_trace.json"
iterations=20
rm -f "$trace"
out=$($run -np 2 --vf 2 --trace "$trace" "$bin" 64 $iterations 2>&1)
status=$?
echo "$out"
if [ $status -ne 0 ] || ! echo "$out" | grep -q "heat2d_split: OK"; then echo "split_trace: FAILED (run)"; exit 1; fi
spans=$(grep -o '"cat": *"split"' "$trace" | wc -l)
expected=$((4 * iterations))
echo "split spans: $spans (expected $expected: 4 subranks x $iterations iterations)"
if [ "$spans" -ne "$expected" ]; then echo "split_trace: FAILED (the interior did not run in every iteration)"; exit 1; fi
echo "split_trace: ok"
