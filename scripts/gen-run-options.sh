#!/usr/bin/env bash
# Writes the options table of docs/runtime.md and the option entries of
# docs/man/tucana-run.1 from runtime/src/run_options.def (between their
# "run-options: begin" and "run-options: end" lines; the prose around them
# is kept). The test docs.run_options_current fails when they are stale.
# Usage: scripts/gen-run-options.sh [GENERATOR [OUT_DIR]]
#   GENERATOR  the build's tucana-run-options-gen (default: compiled here
#              from tools/run_options_gen.cc with ${CXX:-c++})
#   OUT_DIR    write runtime.md and tucana-run.1 there instead of in docs/
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gen=${1:-}
out_dir=${2:-}
if [ -z "$gen" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  "${CXX:-c++}" -std=c++17 -I"$root/runtime/src" -o "$tmp/gen" "$root/tools/run_options_gen.cc"
  gen=$tmp/gen
fi
"$gen" markdown "$root/docs/runtime.md" "${out_dir:-$root/docs}/runtime.md"
"$gen" man "$root/docs/man/tucana-run.1" "${out_dir:-$root/docs/man}/tucana-run.1"
