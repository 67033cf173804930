#!/usr/bin/env bash
# The Parallel Research Kernels (ParRes/Kernels) built with tucanacc through
# their own Makefiles and run under tucana-run -np 2 --vf 4 (8 ranks): every
# MPI1 kernel, the three MPIRMA (one-sided) kernels and the three MPISHM
# (shared-memory windows: MPI_Comm_split_type + MPI_Win_allocate_shared, here
# 4 subranks of a process sharing one window) must print "Solution
# validates". The kernels check their own results against closed forms.
# PRK lives in ../shared/realapps/PRK (beside the project); without it the
# test is skipped (exit 77). It is copied to a scratch directory and never
# changed; the only file written there is the make.defs PRK asks its users for.
# Usage: prk_test.sh BIN_DIR REALAPPS_DIR
set -u
bin=$(cd "$1" && pwd)
prk=$2/PRK
if [ ! -d "$prk/MPI1" ] || [ ! -d "$prk/MPIRMA" ]; then
  echo "prk: skipped: $prk does not hold MPI1 and MPIRMA"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp -r "$prk" "$work/prk"
cd "$work/prk"
cat >common/make.defs <<DEFS
CC=cc -std=c11
DEFAULT_OPT_FLAGS=-O2
MPICC=$bin/tucanacc
DEFS
failures=0
passes=0

# kernel DIR ARGS...: build DIR's program and run it on 2 processes x 4 subranks
kernel() {
  local dir=$1 program
  shift
  program=$(awk '$1 == "PROGRAM" { print $3 }' "$dir/Makefile")
  if ! make -C "$dir" "$program" >"$work/build.log" 2>&1; then
    failures=$((failures + 1))
    echo "FAIL: $dir: build"
    tail -20 "$work/build.log" | sed 's/^/    /'
    return
  fi
  if grep -q "not supported by Tucana" "$work/build.log"; then
    failures=$((failures + 1))
    echo "FAIL: $dir: calls an MPI function Tucana does not run:"
    grep "not supported by Tucana" "$work/build.log" | sed 's/^/    /'
    return
  fi
  if timeout 300 "$bin/tucana-run" -np 2 --vf 4 "$dir/$program" "$@" >"$work/run.log" 2>&1 &&
     grep -q "Solution validates" "$work/run.log"; then
    passes=$((passes + 1))
    echo "ok: $dir $*: $(grep -m1 -E 'Rate|Avg time' "$work/run.log" | tr -s ' ')"
  else
    failures=$((failures + 1))
    echo "FAIL: $dir $*: no \"Solution validates\""
    tail -20 "$work/run.log" | sed 's/^/    /'
  fi
}

kernel MPI1/AMR 10 200 50 2 2 1 1 FINE_GRAIN
kernel MPI1/Branch 10 1000 vector_go
kernel MPI1/DGEMM 3 128 32 1
kernel MPI1/Nstream 10 100000 0
kernel MPI1/PIC-static 10 100 1000 1 0 SINUSOIDAL
kernel MPI1/Random 16 16
kernel MPI1/Reduce 10 1000
kernel MPI1/Sparse 5 8 2
kernel MPI1/Stencil 10 200
kernel MPI1/Synch_global 10 128
kernel MPI1/Synch_p2p 10 200 200
kernel MPI1/Transpose 10 256 32
kernel MPIRMA/Stencil 10 200
kernel MPIRMA/Synch_p2p 10 200 200
kernel MPIRMA/Transpose 10 256 32 0
kernel MPIRMA/Transpose 10 256 32 1 0
kernel MPIRMA/Transpose 10 256 32 1 1
# MPISHM: the first argument is the ranks per shared-memory domain (a process's 4)
if [ -d MPISHM ]; then
  kernel MPISHM/Stencil 4 10 200
  kernel MPISHM/Synch_p2p 10 200 200
  kernel MPISHM/Transpose 4 10 256 32
fi

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
