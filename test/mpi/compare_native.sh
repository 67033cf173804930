#!/bin/sh
# compare_native.sh -- run a program natively and virtualized, compare results.
#
# usage: compare_native.sh -np N --launcher MPIRUN [--launcher-args "ARGS"]
#                          --native PROGRAM [--args "PROGRAM ARGS"]
#                          -- VIRTUAL_COMMAND...
#
# Runs "MPIRUN [--oversubscribe] ARGS -np N PROGRAM PROGRAM-ARGS" (the
# native build, under the system MPI; --oversubscribe is added when MPIRUN
# is Open MPI's) and then VIRTUAL_COMMAND (e.g. "tucana-run -np 2 --vf 2
# ./jacobi2d", with the same total rank count and program arguments).
# Both must exit 0, the native output must have at least one line that
# starts with "residual", "checksum" or "iter <k> residual" (any of the
# kinds), and those lines must be byte-identical in both outputs.
# Builds nothing.
usage() {
    echo "usage: compare_native.sh -np N --launcher MPIRUN [--launcher-args ARGS] --native PROGRAM [--args ARGS] -- VIRTUAL_COMMAND..." >&2
    exit 2
}

np=""
launcher=""
launcher_args=""
native=""
args=""
while [ $# -gt 0 ]; do
    case "$1" in
        -np | -n) [ $# -ge 2 ] || usage; np=$2; shift 2 ;;
        --launcher) [ $# -ge 2 ] || usage; launcher=$2; shift 2 ;;
        --launcher-args) [ $# -ge 2 ] || usage; launcher_args=$2; shift 2 ;;
        --native) [ $# -ge 2 ] || usage; native=$2; shift 2 ;;
        --args) [ $# -ge 2 ] || usage; args=$2; shift 2 ;;
        --) shift; break ;;
        *) usage ;;
    esac
done
[ -n "$np" ] && [ -n "$launcher" ] && [ -n "$native" ] && [ $# -ge 1 ] || usage

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_native.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# Open MPI's mpirun refuses more processes than cores without this.
oversubscribe=""
if $launcher --version 2>&1 | grep -qE 'Open ?MPI|OpenRTE'; then
    oversubscribe="--oversubscribe"
fi

pattern='^(iter [0-9]+ )?residual |^checksum '

echo "== native: $launcher $oversubscribe $launcher_args -np $np $native $args"
# $launcher, $launcher_args and $args are split into words on purpose.
# shellcheck disable=SC2086
$launcher $oversubscribe $launcher_args -np "$np" "$native" $args >"$tmp/native" 2>&1
nstatus=$?
cat "$tmp/native"

echo "== virtual: $*"
"$@" >"$tmp/virtual" 2>&1
vstatus=$?
cat "$tmp/virtual"

grep -E "$pattern" "$tmp/native" >"$tmp/native.res"
grep -E "$pattern" "$tmp/virtual" >"$tmp/virtual.res"

failed=0
if [ "$nstatus" -ne 0 ]; then
    echo "compare_native: FAILED: native run exited with status $nstatus"
    failed=1
fi
if [ "$vstatus" -ne 0 ]; then
    echo "compare_native: FAILED: virtual run exited with status $vstatus"
    failed=1
fi
if [ ! -s "$tmp/native.res" ]; then
    echo "compare_native: FAILED: native output has no residual/checksum lines"
    failed=1
fi
if ! cmp -s "$tmp/native.res" "$tmp/virtual.res"; then
    echo "compare_native: FAILED: residual/checksum lines differ (native < > virtual):"
    diff "$tmp/native.res" "$tmp/virtual.res"
    failed=1
fi
if [ "$failed" -eq 0 ]; then
    echo "compare_native: ok ($(wc -l <"$tmp/native.res" | tr -d ' ') identical lines)"
fi
exit "$failed"
