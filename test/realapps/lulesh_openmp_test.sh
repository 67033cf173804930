#!/usr/bin/env bash
# LULESH 2.0 built by its own Makefile with its default OpenMP on (-fopenmp,
# USE_OMP=1), CXX=tucanacxx, run with OMP_NUM_THREADS=2, must print the same
# final origin energy as the same sources built with the system's mpicxx and
# run with mpirun at 8 ranks, at `tucana-run -np 1 --vranks 8`,
# `-np 2 --vranks 8` and `-np 2 --workers 2 --vranks 8` (-s 8 -i 20).
# LULESH's OpenMP loops touch no privatized global today; this keeps it so.
# LULESH lives in ../shared/realapps beside the project; without it the test
# is skipped (exit 77). Its sources are copied to a scratch directory and
# never changed.
# Usage: lulesh_openmp_test.sh BIN_DIR REALAPPS_DIR NATIVE_MPICXX NATIVE_MPIRUN
set -u
bin=$(cd "$1" && pwd)
apps=$2
native_cxx=$3
native_run=$4
if [ ! -f "$apps/LULESH/lulesh.cc" ]; then
  echo "realapps.lulesh_openmp: skipped: $apps does not hold LULESH"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=2
oversub=""
if "$native_run" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi
cp -r "$apps/LULESH" "$work/tucana"
cp -r "$apps/LULESH" "$work/native"
rm -f "$work"/tucana/*.o "$work"/native/*.o "$work"/tucana/lulesh2.0 "$work"/native/lulesh2.0
# The Makefile's own CXXFLAGS/LDFLAGS: -g -O3 -fopenmp.
if ! make -C "$work/tucana" CXX="$bin/tucanacxx -DUSE_MPI=1" -j 2 >"$work/build.log" 2>&1; then
  echo "FAIL: LULESH (OpenMP) with tucanacxx did not build"; tail -30 "$work/build.log"; exit 1
fi
grep -q -- "-fopenmp" "$work/build.log" || { echo "FAIL: the Makefile did not build with -fopenmp"; exit 1; }
if ! make -C "$work/native" CXX="$native_cxx -DUSE_MPI=1" -j 2 >"$work/native.log" 2>&1; then
  echo "FAIL: LULESH (OpenMP) with $native_cxx did not build"; tail -30 "$work/native.log"; exit 1
fi
args=(-s 8 -i 20)
"$native_run" -np 8 $oversub "$work/native/lulesh2.0" "${args[@]}" >"$work/native.out" 2>&1
want=$(grep -E "Final Origin Energy" "$work/native.out")
if [ -z "$want" ]; then
  echo "FAIL: plain mpirun printed no final energy"; tail -20 "$work/native.out"; exit 1
fi
echo "plain MPI, 8 ranks: $(echo "$want" | tr -s ' ')"
failures=0
for layout in "-np 1 --vranks 8" "-np 2 --vranks 8" "-np 2 --workers 2 --vranks 8"; do
  # shellcheck disable=SC2086
  timeout 300 "$bin/tucana-run" $layout "$work/tucana/lulesh2.0" "${args[@]}" >"$work/tucana.out" 2>&1
  got=$(grep -E "Final Origin Energy" "$work/tucana.out")
  if [ -n "$got" ] && [ "$got" = "$want" ]; then
    echo "ok: tucana-run $layout: $(echo "$got" | tr -s ' ')"
  else
    failures=$((failures + 1))
    echo "FAIL: tucana-run $layout"
    tail -20 "$work/tucana.out" | sed 's/^/    /'
  fi
done
[ "$failures" = 0 ]
