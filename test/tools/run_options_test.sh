#!/usr/bin/env bash
# runtime/src/run_options.def is the one source of tucana-run's options:
# the committed docs/runtime.md and docs/man/tucana-run.1 equal what
# scripts/gen-run-options.sh writes from it now, and tucana-run --help and
# the man page name every spelling of every option of the table.
# Usage: run_options_test.sh SOURCE_DIR BIN_DIR GENERATOR WORK_DIR
set -u
root=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd)
gen=$3
work=$4
failures=0
passes=0
pass() { passes=$((passes + 1)); }
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

rm -rf "$work" && mkdir -p "$work"
if "$root/scripts/gen-run-options.sh" "$gen" "$work"; then
  for doc in runtime.md man/tucana-run.1; do
    if diff -u "$root/docs/$doc" "$work/$(basename "$doc")"; then pass; else
      fail "docs/$doc is stale: run scripts/gen-run-options.sh"
    fi
  done
else
  fail "scripts/gen-run-options.sh failed"
fi

help=$("$bin/tucana-run" --help 2>&1)
page=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$root/docs/man/tucana-run.1")
n=0
while read -r opt; do
  n=$((n + 1))
  if grep -qF -- "$opt" <<<"$help"; then pass; else fail "tucana-run --help does not list $opt"; fi
  if grep -qF -- "$opt" <<<"$page"; then pass; else fail "tucana-run.1 does not document $opt"; fi
done < <("$gen" options)
[ "$n" -ge 25 ] && pass || fail "the table gave only $n spellings"

echo "run_options: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
