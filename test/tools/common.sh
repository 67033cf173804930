# Shared by the tools and build-system tests: a scratch directory, check and
# expect helpers and a closing "N passed, N failed" line. Source it with
# BIN_DIR as $1 (or an empty $1 when there is no bin directory to use).
# CHECK_VERBOSE=1 prints a line for each passing check too.
set -u
bin=""
[ -n "${1:-}" ] && bin=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failures=0
passes=0
check() {  # name, then a command that must succeed
  local name=$1
  shift
  if "$@" >"$work/check.txt" 2>&1; then
    passes=$((passes + 1))
    [ "${CHECK_VERBOSE:-0}" = 1 ] && echo "ok: $name"
  else
    failures=$((failures + 1))
    echo "FAIL: $name"
    sed 's/^/    /' "$work/check.txt" | tail -40
  fi
}
expect_fail_with() {  # pattern, command...: the command fails and prints pattern
  local pattern=$1
  shift
  if "$@" >out.log 2>&1; then echo "unexpectedly succeeded"; cat out.log; return 1; fi
  grep -qE -- "$pattern" out.log || { echo "missing /$pattern/ in:"; cat out.log; return 1; }
}
expect_output() {  # pattern, command...: the command succeeds and prints pattern
  local pattern=$1
  shift
  "$@" >out.log 2>&1 || { echo "failed ($?):"; cat out.log; return 1; }
  grep -qE -- "$pattern" out.log || { echo "missing /$pattern/ in:"; cat out.log; return 1; }
}
expect_status() {  # status, command...: the command ends with that status
  local want=$1 got=0
  shift
  "$@" >out.log 2>&1 || got=$?
  [ "$got" -eq "$want" ] || { echo "exit status $got, expected $want:"; cat out.log; return 1; }
}
finish() {
  echo "$passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
