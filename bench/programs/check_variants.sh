#!/bin/sh
# Correctness check of one benchmark program's variants: runs
#   NAME.original and NAME.overlap   with NATIVE_MPIRUN -np NATIVE_NP
#   NAME.tucana and NAME.virtualized with TUCANA_RUN -np P --vf VF
#   NAME.toucan, NAME.explicit,      idem (the annotation ablation's
#   NAME.directional                 translated variants)
#   NAME.hybrid                      with TUCANA_RUN -np P --tasks 3 (P ranks), and
#                                    with TUCANA_RUN -np P --workers 2 --tasks 4
#                                    (2P ranks, a subrank per worker, whose
#                                    tasks other workers may steal)
# (the native and the Tucana variants on the same number of ranks, NATIVE_NP
# = P * VF, or P * W * VF when TUCANA_RUN is "tucana-run --workers W", so
# that programs whose problem depends on the rank count compare too; the
# hybrid variant exists only for programs whose problem does not)
# and requires of each run exit status 0 and a line "NAME: OK", and of all
# runs identical "checksum" lines. Prints "check_variants: ok" or
# "check_variants: FAILED".
# --native-np N1,N2,...: the native variants run at each of these rank
# counts as well (labels VARIANT(npN)): for the programs whose problem does
# not depend on the rank count, the checksum must not either.
#
# usage: check_variants.sh [--variants V1,V2,...] [--native-np N1,N2,...] NAME BINDIR NATIVE_MPIRUN NATIVE_NP TUCANA_RUN P VF [ARGS...]
# (default variants: original,overlap,tucana,virtualized)
set -u
variants="original overlap tucana virtualized"
extra_np=""
while [ $# -gt 0 ]; do
  case ${1:-} in
    --variants) variants=$(echo "${2:-}" | tr ',' ' '); shift 2 ;;
    --native-np) extra_np=$(echo "${2:-}" | tr ',' ' '); shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 7 ] || [ -z "$variants" ]; then
  echo "usage: $0 [--variants V1,V2,...] [--native-np N1,N2,...] NAME BINDIR NATIVE_MPIRUN NATIVE_NP TUCANA_RUN P VF [ARGS...]" >&2
  exit 2
fi
name=$1 bindir=$2 mpirun=$3 nnp=$4 run=$5 p=$6 vf=$7
shift 7

. "$(dirname "$0")/check_common.sh"

for variant in $variants; do
  exe="$bindir/$name.$variant"
  case $variant in
    original | overlap) runs="native"
      for n in $extra_np; do runs="$runs np$n"; done ;;
    tucana | virtualized | toucan | explicit | directional) runs="vf" ;;
    hybrid) runs="tasks3 workers2-tasks4" ;;
    *) echo "check_variants: unknown variant '$variant'" >&2; exit 2 ;;
  esac
  for how in $runs; do
    case $how in
      native) launch="$mpirun -np $nnp $oversub" ;;
      np*) launch="$mpirun -np ${how#np} $oversub" ;;
      vf) launch="$run -np $p --vf $vf" ;;
      tasks3) launch="$run -np $p --tasks 3" ;;
      workers2-tasks4) launch="$run -np $p --workers 2 --tasks 4" ;;
    esac
    label=$variant
    [ "$how" = native ] || [ "$how" = vf ] || label="$variant($how)"
    check_run "$label" "$launch" "$exe" "$@"
  done
done
check_verdict
