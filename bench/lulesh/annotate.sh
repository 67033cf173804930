#!/usr/bin/env bash
# annotate.sh: copy LULESH 2.0 (the unmodified public sources) into OUT_DIR and
# add Tucana's pragmas to lulesh.cc, one line each, right before the statement
# they annotate. Nothing else is changed: the script checks that `diff` between
# the original and the annotated file shows only added `#pragma tucana` lines.
#
# usage: annotate.sh [--count] SRC_DIR OUT_DIR
#   SRC_DIR   LULESH sources (../shared/realapps/LULESH beside the project)
#   OUT_DIR   a build directory (created; never the repository); the files of
#             SRC_DIR are copied there and OUT_DIR/lulesh.cc is annotated
#   --count   print only the number of directives added (to stdout)
#
# The directives (docs/lulesh.md):
#   main():   #pragma tucana superblock                      before the time loop
#             #pragma tucana region(increment)               TimeIncrement(*locDom) ;
#             #pragma tucana region(leapfrog) depends(increment)   LagrangeLeapFrog(*locDom) ;
#             #pragma tucana region(progress) depends(leapfrog)    the printing if
#   every call statement of the halo exchange (in the #if USE_MPI blocks):
#             #pragma tucana receive   before CommRecv(...)
#             #pragma tucana send      before CommSend(...)
#             #pragma tucana compute   before CommSBN(...), CommSyncPosVel(...), CommMonoQ(...)
# An anchor that is not found (or found a different number of times than
# LULESH 2.0 has it) is an error: the script stops with status 1 and says which.
set -euo pipefail
self=annotate.sh
count_only=0
if [ "${1:-}" = "--count" ]; then count_only=1; shift; fi
if [ $# -ne 2 ]; then
  echo "usage: $self [--count] SRC_DIR OUT_DIR" >&2
  exit 2
fi
src=$1
out=$2
for f in lulesh.cc lulesh-comm.cc lulesh.h; do
  [ -f "$src/$f" ] || { echo "$self: $src/$f not found (is SRC_DIR the LULESH folder?)" >&2; exit 1; }
done
mkdir -p "$out"
src_abs=$(cd "$src" && pwd)
out_abs=$(cd "$out" && pwd)
if [ "$src_abs" = "$out_abs" ]; then
  echo "$self: OUT_DIR must differ from SRC_DIR" >&2
  exit 1
fi
# Copy everything (sources, Makefile, CMakeLists.txt), without build products.
(cd "$src_abs" && find . -maxdepth 1 -type f \( -name '*.cc' -o -name '*.h' -o -name Makefile \
   -o -name CMakeLists.txt -o -name README -o -name TODO -o -name LICENSE\* \) -print0 |
   xargs -0 -I{} cp -f {} "$out_abs/")

# The awk program: insert a pragma line (with the statement's indentation)
# before each anchored statement, count the insertions per anchor, and print
# the counts at the end to a side file.
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
awk -v counts="$counts" '
function indent(s) { match(s, /^[ \t]*/); return substr(s, 1, RLENGTH) }
function add(line, text, key) { print indent(line) text; n[key]++ }
{
  line = $0
  # The main time loop and the statements of its body (main() only).
  if (line ~ /^[ \t]*while[ \t]*\(\(locDom->time\(\) < locDom->stoptime\(\)\) && \(locDom->cycle\(\) < opts\.its\)\)[ \t]*\{[ \t]*$/) {
    add(line, "#pragma tucana superblock", "superblock"); inloop = 1
  } else if (inloop && line ~ /^[ \t]*TimeIncrement\(\*locDom\)[ \t]*;[ \t]*$/) {
    add(line, "#pragma tucana region(increment)", "increment")
  } else if (inloop && line ~ /^[ \t]*LagrangeLeapFrog\(\*locDom\)[ \t]*;[ \t]*$/) {
    add(line, "#pragma tucana region(leapfrog) depends(increment)", "leapfrog")
  } else if (inloop && line ~ /^[ \t]*if \(\(opts\.showProg != 0\) && \(opts\.quiet == 0\) && \(myRank == 0\)\)/) {
    add(line, "#pragma tucana region(progress) depends(leapfrog)", "progress"); inloop = 0
  # The halo exchange: call statements (not the definitions in lulesh-comm.cc).
  } else if (line ~ /^[ \t]*CommRecv\(/) {
    add(line, "#pragma tucana receive", "CommRecv")
  } else if (line ~ /^[ \t]*CommSend\(/) {
    add(line, "#pragma tucana send", "CommSend")
  } else if (line ~ /^[ \t]*CommSBN\(/) {
    add(line, "#pragma tucana compute", "CommSBN")
  } else if (line ~ /^[ \t]*CommSyncPosVel\(/) {
    add(line, "#pragma tucana compute", "CommSyncPosVel")
  } else if (line ~ /^[ \t]*CommMonoQ\(/) {
    add(line, "#pragma tucana compute", "CommMonoQ")
  }
  print line
}
END { for (k in n) print k, n[k] > counts }
' "$src_abs/lulesh.cc" >"$out_abs/lulesh.cc"

# Expected anchors in LULESH 2.0 (LLNL/LULESH 3e01c40): every call statement,
# including the initial exchange in main() and the SEDOV_SYNC_POS_VEL_LATE
# variant (compiled out by lulesh.h's default SEDOV_SYNC_POS_VEL_EARLY).
expected="superblock 1
increment 1
leapfrog 1
progress 1
CommRecv 5
CommSend 5
CommSBN 2
CommSyncPosVel 2
CommMonoQ 1"
bad=0
total=0
while read -r key want; do
  got=$(awk -v k="$key" '$1 == k { print $2 }' "$counts")
  got=${got:-0}
  total=$((total + got))
  if [ "$got" != "$want" ]; then
    echo "$self: anchor '$key' found $got times in $src_abs/lulesh.cc, expected $want" >&2
    bad=1
  fi
done <<<"$expected"
if [ $bad = 1 ]; then
  echo "$self: the sources differ from LULESH 2.0 as this script knows it; nothing usable in $out_abs" >&2
  rm -f "$out_abs/lulesh.cc"
  exit 1
fi

# The diff may only add '#pragma tucana' lines.
d=$(diff "$src_abs/lulesh.cc" "$out_abs/lulesh.cc" || true)
other=$(printf '%s\n' "$d" | grep -E '^[<>]' | grep -vE '^> [ \t]*#pragma tucana ' || true)
added=$(printf '%s\n' "$d" | grep -cE '^> [ \t]*#pragma tucana ' || true)
if [ -n "$other" ] || [ "$added" != "$total" ]; then
  echo "$self: the annotated lulesh.cc differs from the original by more than added pragma lines:" >&2
  printf '%s\n' "$other" | head -20 >&2
  exit 1
fi
for f in "$src_abs"/*.cc "$src_abs"/*.h; do
  [ "$(basename "$f")" = lulesh.cc ] && continue
  cmp -s "$f" "$out_abs/$(basename "$f")" || { echo "$self: $(basename "$f") changed" >&2; exit 1; }
done
if [ $count_only = 1 ]; then
  echo "$total"
else
  echo "$self: $total directives added to $out_abs/lulesh.cc (only '#pragma tucana' lines; other files unchanged)"
fi
