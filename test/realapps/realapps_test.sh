#!/usr/bin/env bash
# Unmodified public proxy applications built with Tucana's wrappers the way
# their own build systems build them, run under tucana-run, and compared with
# the same sources built with the system's MPI wrappers and run with mpirun:
#   LULESH  its CMakeLists.txt, find_package(MPI) with MPI_CXX_COMPILER=tucanacxx;
#           final origin energy, 8 ranks (2 processes x 4 subranks)
#   HPCCG   its Makefile with CXX=tucanacxx; final residual, 4 and 8 ranks
#           on 1 and 2 processes
#   CoMD    its Makefile with CC=tucanacc; energies per step, 4 and 8 ranks on
#           1 and 2 processes (CoMD keeps its rank and options in globals and
#           parses argv with getopt: tucanacc privatizes them)
# The applications live in ../shared/realapps (beside the project); without
# them the test is skipped (exit 77). They are copied to a scratch directory
# and never changed.
# Usage: realapps_test.sh BIN_DIR REALAPPS_DIR NATIVE_MPICC NATIVE_MPICXX NATIVE_MPIRUN
set -u
bin=$(cd "$1" && pwd)
apps=$2
native_cc=$3
native_cxx=$4
native_run=$5
if [ ! -d "$apps/LULESH" ] || [ ! -d "$apps/HPCCG" ] || [ ! -d "$apps/CoMD" ]; then
  echo "realapps: skipped: $apps does not hold LULESH, HPCCG and CoMD"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
oversub=""
if "$native_run" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi
failures=0
passes=0

# compare NAME PATTERN NATIVE_LOG TUCANA_LOG: the lines matching PATTERN agree
compare() {
  local name=$1 pattern=$2 a b
  a=$(grep -E "$pattern" "$3")
  b=$(grep -E "$pattern" "$4")
  if [ -n "$a" ] && [ "$a" = "$b" ]; then
    passes=$((passes + 1))
    echo "ok: $name: $(echo "$b" | tail -n 1 | tr -s ' ')"
  else
    failures=$((failures + 1))
    echo "FAIL: $name"
    echo "  plain MPI:"; sed 's/^/    /' "$3" | tail -15
    echo "  Tucana:"; sed 's/^/    /' "$4" | tail -15
  fi
}
step() {  # name, command...: must succeed (its output in $work/step.log)
  local name=$1
  shift
  if "$@" >"$work/step.log" 2>&1; then return 0; fi
  failures=$((failures + 1))
  echo "FAIL: $name"
  tail -30 "$work/step.log" | sed 's/^/    /'
  return 1
}

# --- LULESH: its own CMake project, FindMPI pointed at the wrappers ----------
cp -r "$apps/LULESH" "$work/lulesh-src"
if step "LULESH: cmake with MPI_CXX_COMPILER=tucanacxx" cmake -S "$work/lulesh-src" -B "$work/lulesh" \
     -DMPI_CXX_COMPILER="$bin/tucanacxx" -DMPI_C_COMPILER="$bin/tucanacc" -DWITH_OPENMP=OFF \
     -DCMAKE_BUILD_TYPE=Release &&
   step "LULESH: build" cmake --build "$work/lulesh" -j 2 &&
   step "LULESH: plain build" make -C "$work/lulesh-src" CXX="$native_cxx -DUSE_MPI=1" \
     CXXFLAGS="-O3 -I. -DUSE_OMP=0" LDFLAGS=-O3 -j 2; then
  "$native_run" -np 8 $oversub "$work/lulesh-src/lulesh2.0" -s 8 -i 20 >"$work/lulesh.native" 2>&1
  "$bin/tucana-run" -np 2 --vf 4 "$work/lulesh/lulesh2.0" -s 8 -i 20 >"$work/lulesh.tucana" 2>&1
  compare "LULESH -s 8 -i 20, 8 ranks" "Final Origin Energy" "$work/lulesh.native" "$work/lulesh.tucana"
fi

# --- HPCCG: its Makefile --------------------------------------------------------
cp -r "$apps/HPCCG" "$work/hpccg"
cp -r "$apps/HPCCG" "$work/hpccg-native"
if step "HPCCG: make with tucanacxx" make -C "$work/hpccg" CXX="$bin/tucanacxx" LINKER="$bin/tucanacxx" \
     USE_MPI=-DUSING_MPI -j 2 &&
   step "HPCCG: plain make" make -C "$work/hpccg-native" CXX="$native_cxx" LINKER="$native_cxx" \
     USE_MPI=-DUSING_MPI -j 2; then
  for ranks in 4 8; do
    (cd "$work/hpccg-native" && "$native_run" -np $ranks $oversub ./test_HPCCG 20 20 10) >"$work/hpccg.native" 2>&1
    for procs in 1 2; do
      (cd "$work/hpccg" && "$bin/tucana-run" -np $procs --vf $((ranks / procs)) ./test_HPCCG 20 20 10) >"$work/hpccg.tucana" 2>&1
      compare "HPCCG 20 20 10, $ranks ranks on $procs process(es)" "Final residual|Number of iterations" \
        "$work/hpccg.native" "$work/hpccg.tucana"
    done
  done
fi

# --- CoMD: its Makefile ---------------------------------------------------------
cp -r "$apps/CoMD" "$work/comd"
cp -r "$apps/CoMD" "$work/comd-native"
cp "$work/comd/src-mpi/Makefile.vanilla" "$work/comd/src-mpi/Makefile"
cp "$work/comd-native/src-mpi/Makefile.vanilla" "$work/comd-native/src-mpi/Makefile"
if step "CoMD: make with tucanacc" make -C "$work/comd/src-mpi" CC="$bin/tucanacc" -j 2 &&
   step "CoMD: plain make" make -C "$work/comd-native/src-mpi" CC="$native_cc" -j 2; then
  privatized=$(for o in "$work"/comd/src-mpi/*.o; do objdump -t "$o"; done |
    awk '$4 == "tucana_priv" && $NF != "tucana_priv" && $NF !~ /^tucana_/' | wc -l)
  echo "CoMD: $privatized variables privatized"
  steps() {  # the step lines without their timing columns
    sed -E -n 's/^ +([0-9]+ +[0-9.]+ +-?[0-9.]+ +-?[0-9.]+ +-?[0-9.]+ +[0-9.]+) +[0-9.]+ +([0-9]+)$/\1 \2/p' "$1"
  }
  for grid in "4 2 2 1" "8 2 2 2"; do
    read -r ranks i j k <<<"$grid"
    args=(-i $i -j $j -k $k -x 12 -y 12 -z 12 -N 20)
    (cd "$work/comd-native" && "$native_run" -np $ranks $oversub bin/CoMD-mpi "${args[@]}") >"$work/comd.native" 2>&1
    steps "$work/comd.native" >"$work/comd.native.steps"
    for procs in 1 2; do
      (cd "$work/comd" && "$bin/tucana-run" -np $procs --vf $((ranks / procs)) bin/CoMD-mpi "${args[@]}") >"$work/comd.tucana" 2>&1
      steps "$work/comd.tucana" >"$work/comd.tucana.steps"
      compare "CoMD 20 steps, $ranks ranks on $procs process(es)" "." "$work/comd.native.steps" "$work/comd.tucana.steps"
    done
  done
fi

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
