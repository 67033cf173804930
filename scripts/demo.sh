#!/usr/bin/env bash
# The demo: an unmodified 2D Jacobi MPI program, run on 8 virtual ranks
# (2 processes x 4 subranks) by Tucana, next to the same program on 8 plain
# MPI processes. Both must print the same residual and checksum, bit for bit.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TUCANA_ROOT"

n=${1:-256}
iters=${2:-200}

scripts/setup-deps.sh
build_tree build >/dev/null
bin=build/examples/jacobi2d

echo "== plain MPI: mpirun -np 8 jacobi2d.native $n $iters"
native=$(mpirun -np 8 --oversubscribe "$bin/jacobi2d.native" "$n" "$iters")
summary() { grep -E '^(residual|checksum|ranks)' <<<"$1"; }
summary "$native"
echo
echo "== Tucana: tucana-run -np 2 --vf 4 jacobi2d $n $iters (8 subranks, 4 per process)"
virtual=$(build/bin/tucana-run -np 2 --vf 4 "$bin/jacobi2d" "$n" "$iters")
summary "$virtual"
echo
pick() { grep -E '^(residual|checksum)' <<<"$1"; }
if [ "$(pick "$native")" = "$(pick "$virtual")" ]; then
  echo "RESULT: residual and checksum are bitwise identical under plain MPI and under Tucana"
else
  echo "RESULT: MISMATCH between plain MPI and Tucana" >&2
  exit 1
fi
