#!/usr/bin/env bash
# annotate.sh IN OUT: the real NAS IS (NPB3.4-MPI is.c, unmodified) with the
# four `#pragma cco` lines `tucana-cco rewrite --mpi` needs to pipeline its
# timed loop (docs/advise-check-rewrite.md, "The real NAS IS"). Only pragma
# lines are added; no line of the program changes.
#
#   #pragma cco do private(key_buff1[0:size_of_buffers], key_buff2[0:size_of_buffers])
#       before the timed loop: rank() uses key_buff1 as the buckets' send
#       buffer and then as the ranking's work array, key_buff2 as the
#       receive buffer the ranking reads, and no value of either flows from
#       one iteration to the next (full_verify, after the loop, reads what
#       the last iteration left)
#   #pragma cco ignore
#       before the loop's `printf` of the iteration number: its order against
#       rank()'s "Failed partial verification" lines may change
#   #pragma cco override timer_start / timer_stop
#       the timers (c_timers.c, not in is.c) touch nothing the loop uses, as
#       the seed paper's Fig. 5 declares
# Fails (exit 1) when IS no longer has the lines these pragmas go before.
set -euo pipefail
in=$1 out=$2
[ "$in" != "$out" ] || { echo "annotate.sh: refusing to write over the input" >&2; exit 1; }
awk '
  /^ *for\( *iteration=1; *iteration<=MAX_ITERATIONS; *iteration\+\+ *\)/ && !loop {
    print "#pragma cco do private(key_buff1[0:size_of_buffers], key_buff2[0:size_of_buffers])"; loop = 1
  }
  /^ *if\( *my_rank == 0 && CLASS != .S. *\) printf\( *"        %d\\n", iteration *\);/ && loop && !ign {
    print "#pragma cco ignore"; ign = 1
  }
  { print }
  END {
    print "#pragma cco override timer_start"
    print "#pragma cco override timer_stop"
    if (!loop || !ign) { print "annotate.sh: the timed loop or its printf was not found" > "/dev/stderr"; exit 1 }
  }' "$in" >"$out.tmp" || { rm -f "$out.tmp"; exit 1; }
mv "$out.tmp" "$out"
