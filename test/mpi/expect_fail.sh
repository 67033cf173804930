#!/bin/sh
# expect_fail.sh -- run a command that must fail, and check what it printed.
#
# usage: expect_fail.sh [-s STATUS] [-e REGEX]... [-c COUNT REGEX]... -- COMMAND [ARGS...]
#
#   -s STATUS        COMMAND must exit with this status (A,B accepts either);
#                    without -s any non-zero status will do
#   -e REGEX         the combined stdout/stderr must contain a line matching
#                    the extended regular expression REGEX (grep -E)
#   -c COUNT REGEX   at least COUNT lines must match REGEX
#
# Runs COMMAND, echoes its output, and exits 0 only if COMMAND failed (with
# STATUS when given) and every pattern is found.  Otherwise prints a line
# starting with "expect_fail: FAILED" and exits 1.  Used for the deadlock
# tests: the runtime's deadlock detector must report and end the program
# with status 2, and a failure of any other kind (a crash, a timeout, a
# FAIL line's MPI_Abort with status 1) must not pass for it.
usage() {
    echo "usage: expect_fail.sh [-s STATUS] [-e REGEX]... [-c COUNT REGEX]... -- COMMAND [ARGS...]" >&2
    exit 2
}

pats=$(mktemp "${TMPDIR:-/tmp}/expect_fail.XXXXXX") || exit 2
out=$(mktemp "${TMPDIR:-/tmp}/expect_fail.XXXXXX") || exit 2
trap 'rm -f "$pats" "$out"' EXIT HUP INT TERM

# one pattern per line of $pats: "COUNT<TAB>REGEX"
tab=$(printf '\t')
want=""
while [ $# -gt 0 ]; do
    case "$1" in
        -s) [ $# -ge 2 ] || usage; want=$2; shift 2 ;;
        -e) [ $# -ge 2 ] || usage; printf '1%s%s\n' "$tab" "$2" >>"$pats"; shift 2 ;;
        -c) [ $# -ge 3 ] || usage; printf '%s%s%s\n' "$2" "$tab" "$3" >>"$pats"; shift 3 ;;
        --) shift; break ;;
        *) usage ;;
    esac
done
[ $# -ge 1 ] || usage

"$@" >"$out" 2>&1
status=$?
cat "$out"

failed=0
if [ "$status" -eq 0 ]; then
    echo "expect_fail: FAILED: the command exited with status 0, expected a failure"
    failed=1
elif [ -n "$want" ]; then
    case ",$want," in
        *",$status,"*) ;;
        *) echo "expect_fail: FAILED: the command exited with status $status, expected $want"
           failed=1 ;;
    esac
fi
while IFS="$tab" read -r count regex; do
    n=$(grep -c -E -e "$regex" "$out")
    if [ "$n" -lt "$count" ]; then
        echo "expect_fail: FAILED: expected at least $count line(s) matching '$regex', found $n"
        failed=1
    fi
done <"$pats"
[ "$failed" -eq 0 ] && echo "expect_fail: ok (exit status $status, all patterns found)"
exit "$failed"
