#!/usr/bin/env bash
# LULESH 2.0 annotated with Tucana pragmas only (bench/lulesh/annotate.sh: a
# superblock around the time loop, three named regions, receive/send/compute
# blocks before the halo-exchange calls), translated by tucanacxx, must print
# the same final origin energy, problem size, iteration count and symmetry
# differences as the unannotated sources built with the system's mpicxx and
# run with mpirun, at 8 subranks (1 x 8, 2 x 4) and 27 (1 x 27, and 2
# processes of 13 and 14 with --vranks 27). A small problem (-s 6 -i 20).
# LULESH lives in ../shared/realapps beside the project; without it the test
# is skipped (exit 77). Its sources are copied to a scratch directory and
# never changed.
# Usage: lulesh_annotated_test.sh SOURCE_DIR BIN_DIR REALAPPS_DIR NATIVE_MPICXX NATIVE_MPIRUN
set -u
src=$1
bin=$2
apps=$3
if [ ! -f "$apps/LULESH/lulesh.cc" ]; then
  echo "realapps.lulesh_annotated: skipped: $apps does not hold LULESH"
  exit 77
fi
exec bash "$src/bench/lulesh/run.sh" --bin "$bin" --lulesh "$apps/LULESH" --mpicxx "$4" --mpirun "$5" \
  --variants tucana -s 6 -i 20 --layouts "8:1:8 8:2:4 27:1:27 27:2:vranks"
