#!/usr/bin/env bash
# nocomm_test.sh MPIEXEC LIBRARY PROGRAM [NP]
# Runs PROGRAM (nocomm_test) on NP ranks (default 2) with LIBRARY preloaded,
# with Open MPI's mpirun (-x LD_PRELOAD=...) or MPICH's mpiexec (-genv), and
# checks for the "OK" line and the library's banner.
set -uo pipefail
mpiexec=$1 lib=$2 prog=$3 np=${4:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if "$mpiexec" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then
  cmd=("$mpiexec" -np "$np" --oversubscribe -x LD_PRELOAD="$lib" "$prog")
else
  cmd=("$mpiexec" -np "$np" -genv LD_PRELOAD "$lib" "$prog")
fi
echo "running: ${cmd[*]}"
out=$(timeout 120 "${cmd[@]}" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ]; then echo "nocomm_test.sh: FAIL (exit status $rc)"; exit 1; fi
grep -q "nocomm_test: OK" <<<"$out" || { echo "nocomm_test.sh: FAIL (no OK line)"; exit 1; }
grep -q "tucana-nocomm: active" <<<"$out" || { echo "nocomm_test.sh: FAIL (no banner: was the library preloaded?)"; exit 1; }
echo "nocomm_test.sh: PASS"
