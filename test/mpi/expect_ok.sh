#!/bin/sh
# expect_ok.sh -- run an MPI test program and check that it succeeded.
#
# usage: expect_ok.sh NAME COMMAND [ARGS...]
#
# Runs COMMAND (e.g. "tucana-run -np 2 --vf 4 ./p2p_ordering"), echoes its
# combined stdout/stderr, and exits 0 only if
#   - COMMAND exited with status 0,
#   - exactly one output line is "OK NAME" (only rank 0 prints it), and
#   - no output line starts with "FAIL ".
# Otherwise it prints a line starting with "expect_ok: FAILED" (which the
# CMake registration also uses as FAIL_REGULAR_EXPRESSION, because
# PASS_REGULAR_EXPRESSION alone would ignore the exit status) and exits 1.
if [ $# -lt 2 ]; then
    echo "usage: expect_ok.sh NAME COMMAND [ARGS...]" >&2
    exit 2
fi
name=$1
shift

out=$(mktemp "${TMPDIR:-/tmp}/expect_ok.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT HUP INT TERM

"$@" >"$out" 2>&1
status=$?
cat "$out"

reason=""
oks=$(grep -c -x "OK $name" "$out")
if [ "$status" -ne 0 ]; then
    reason="exit status $status"
elif [ "$oks" -ne 1 ]; then
    reason="expected exactly one line 'OK $name', got $oks"
elif grep -q '^FAIL ' "$out"; then
    reason="a FAIL line was printed"
fi
if [ -n "$reason" ]; then
    echo "expect_ok: FAILED: $name: $reason"
    exit 1
fi
exit 0
