#!/usr/bin/env bash
# Every option that tucanacc and tucana-run accept (the patterns of their
# argument parsers) is documented in their man page and in their --help.
# Usage: manpages_test.sh SOURCE_DIR BIN_DIR
set -u
root=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd)
failures=0
passes=0

# The options of a script: the case patterns of its option loop (up to the
# line that says the compiler's own options follow).
options_of() {
  awk '/^while \[ \$# -gt 0 \]/ { inside = 1; next } inside && (/^done/ || /compiler.s own options/) { exit }
       inside && /^ +-[^)]*\)/ {
         sub(/^ +/, ""); sub(/\).*/, ""); n = split($0, alts, /[ \t]*\|[ \t]*/)
         for (i = 1; i <= n; i++) print alts[i]
       }' "$1" |
    grep -vE '^-\*$|^-[A-Za-z]\*$|^-[A-Z][A-Za-z]\*$|^-MF\*$|^-MT\*|\*' || true
}
# The text of a man page with roff's escapes removed.
page_text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"; }

check_tool() {  # script page help_command...
  local script=$1 page=$2
  shift 2
  local text help
  text=$(page_text "$page")
  help=$("$@" 2>&1)
  local opt
  while read -r opt; do
    [ -n "$opt" ] || continue
    if grep -qF -- "$opt" <<<"$text"; then passes=$((passes + 1)); else
      failures=$((failures + 1)); echo "FAIL: $(basename "$page") does not document $opt"
    fi
    if grep -qF -- "$opt" <<<"$help"; then passes=$((passes + 1)); else
      failures=$((failures + 1)); echo "FAIL: $* does not mention $opt"
    fi
  done < <(options_of "$script")
}

# tucana-run as built: its runtime options' cases come from run_options.def.
n=$(options_of "$bin/tucana-run" | wc -l)
[ "$n" -ge 20 ] || { echo "FAIL: found only $n options of tucana-run"; failures=$((failures + 1)); }
check_tool "$bin/tucana-run" "$root/docs/man/tucana-run.1" "$bin/tucana-run" --help
n=$(options_of "$root/tools/tucanacc.in" | wc -l)
[ "$n" -ge 10 ] || { echo "FAIL: found only $n options of tucanacc"; failures=$((failures + 1)); }
check_tool "$root/tools/tucanacc.in" "$root/docs/man/tucanacc.1" "$bin/tucanacc" --help
for opt in -o -p --extra-arg --version; do
  if page_text "$root/docs/man/tucana-translate.1" | grep -qF -- "$opt"; then passes=$((passes + 1)); else
    failures=$((failures + 1)); echo "FAIL: tucana-translate.1 does not document $opt"
  fi
done
# tucana-advise (Python): each subcommand's options in the page and in its --help.
for spec in "calibrate --name -o --quick" "profile -o --profiler" "report --calibration --top --percent --json" \
            "check --json" "rewrite --mpi --tucana -o --profile --test-freq --tune" "--version"; do
  set -- $spec
  sub=$1
  shift
  [ "$sub" = --version ] && set -- --version && sub=""
  help=$("$bin/tucana-advise" $sub --help 2>&1)
  for opt in "$@"; do
    if page_text "$root/docs/man/tucana-advise.1" | grep -qF -- "$opt"; then passes=$((passes + 1)); else
      failures=$((failures + 1)); echo "FAIL: tucana-advise.1 does not document $opt"
    fi
    if grep -qF -- "$opt" <<<"$help"; then passes=$((passes + 1)); else
      failures=$((failures + 1)); echo "FAIL: tucana-advise $sub --help does not mention $opt"
    fi
  done
done
if man -l "$root/docs/man/tucana-run.1" >/dev/null 2>&1 || ! command -v man >/dev/null; then passes=$((passes + 1)); else
  failures=$((failures + 1)); echo "FAIL: man cannot render tucana-run.1"
fi
echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
