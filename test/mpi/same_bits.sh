#!/bin/sh
# same_bits.sh -- the same floating-point reductions must give bitwise
# identical results at every Tucana layout of the same rank count.
#
# usage: same_bits.sh TUCANA_RUN PROGRAM [TUCANA_RUN_OPTION...]
#
# Runs "TUCANA_RUN [OPTIONS] -np P --workers W --vf V PROGRAM" for the three
# layouts of 8 subranks (P,W,V) = (1,1,8), (2,1,4) and (2,2,2); PROGRAM is
# same_bits.c built with tucanacc.  Each run must exit 0, print exactly one
# "OK same_bits" line and no "FAIL " line, and print "bits ..." lines; the
# "bits" lines of all three runs must be identical.  Prints "same_bits: ok",
# or a line starting with "same_bits: FAILED" and exits 1.
if [ $# -lt 2 ]; then
    echo "usage: same_bits.sh TUCANA_RUN PROGRAM [TUCANA_RUN_OPTION...]" >&2
    exit 2
fi
run=$1
prog=$2
shift 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/same_bits.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

failed=0
first=""
for layout in "1 1 8" "2 1 4" "2 2 2"; do
    p=${layout%% *}
    rest=${layout#* }
    w=${rest%% *}
    v=${rest#* }
    name="p${p}w${w}vf${v}"
    echo "== $run${*:+ $*} -np $p --workers $w --vf $v $prog"
    "$run" "$@" -np "$p" --workers "$w" --vf "$v" "$prog" >"$tmp/$name.out" 2>&1
    status=$?
    cat "$tmp/$name.out"
    grep '^bits ' "$tmp/$name.out" >"$tmp/$name.bits"
    oks=$(grep -c -x 'OK same_bits' "$tmp/$name.out")
    if [ "$status" -ne 0 ]; then
        echo "same_bits: FAILED: $name: exit status $status"
        failed=1
    elif [ "$oks" -ne 1 ]; then
        echo "same_bits: FAILED: $name: expected exactly one line 'OK same_bits', got $oks"
        failed=1
    elif grep -q '^FAIL ' "$tmp/$name.out"; then
        echo "same_bits: FAILED: $name: a FAIL line was printed"
        failed=1
    elif [ ! -s "$tmp/$name.bits" ]; then
        echo "same_bits: FAILED: $name: no 'bits' lines"
        failed=1
    fi
    if [ -z "$first" ]; then
        first=$name
    elif ! cmp -s "$tmp/$first.bits" "$tmp/$name.bits"; then
        echo "same_bits: FAILED: bits differ between $first and $name ($first < > $name):"
        diff "$tmp/$first.bits" "$tmp/$name.bits"
        failed=1
    fi
done

if [ "$failed" -eq 0 ]; then
    echo "same_bits: ok ($(wc -l <"$tmp/$first.bits" | tr -d ' ') identical bits lines at 3 layouts)"
fi
exit "$failed"
