#!/bin/sh
# expect_status.sh -- run a command and check its exit status and output.
#
# usage: expect_status.sh STATUS [-e REGEX]... [-n REGEX]... [-c COUNT REGEX]... -- COMMAND [ARGS...]
#   STATUS      the exit status COMMAND must end with; A,B accepts either
#               (launchers differ: Open MPI's mpirun gives 128+N for a
#               signal N, MPICH's mpiexec gives N)
#   -e REGEX    some output line must match (grep -E)
#   -n REGEX    no output line may match
#   -c N REGEX  exactly N output lines must match
# Prints the output, then "expect_status: ok" or "expect_status: FAILED (why)".
want=$1
shift
checks=$(mktemp "${TMPDIR:-/tmp}/expect_status.XXXXXX") || exit 2
out=$(mktemp "${TMPDIR:-/tmp}/expect_status.XXXXXX") || exit 2
trap 'rm -f "$checks" "$out"' EXIT HUP INT TERM
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    -e | -n) printf '%s\t1\t%s\n' "$1" "$2" >>"$checks"; shift 2 ;;
    -c) printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$checks"; shift 3 ;;
    *) echo "expect_status.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] && shift
"$@" >"$out" 2>&1
status=$?
cat "$out"
reason=""
case ",$want," in
  *",$status,"*) ;;
  *) reason="exit status $status, expected $want" ;;
esac
tab=$(printf '\t')
while IFS="$tab" read -r kind count regex; do
  n=$(grep -c -E -- "$regex" "$out")
  case "$kind" in
    -e) [ "$n" -ge 1 ] || reason="${reason:+$reason; }no line matches /$regex/" ;;
    -n) [ "$n" -eq 0 ] || reason="${reason:+$reason; }$n lines match /$regex/" ;;
    -c) [ "$n" -eq "$count" ] || reason="${reason:+$reason; }$n lines match /$regex/, expected $count" ;;
  esac
done <"$checks"
if [ -n "$reason" ]; then
  echo "expect_status: FAILED ($reason)"
  exit 1
fi
echo "expect_status: ok"
