#!/bin/sh
# Correctness check of one benchmark program's variants: runs
#   NAME.original and NAME.overlap   with NATIVE_MPIRUN -np NATIVE_NP
#   NAME.tucana and NAME.virtualized with TUCANA_RUN -np P --vf VF
#   NAME.toucan, NAME.explicit,      idem (the annotation ablation's
#   NAME.directional                 translated variants)
#   NAME.bound                       with NATIVE_MPIRUN -np NATIVE_NP (the exchange
#                                    alone: checked apart, see below)
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
# The bound variant (NAME.c built with -DBENCH_COMM_ONLY: the communication
# alone) computes nothing, so it has no verdict and no checksum to compare:
# its run must exit 0 and print a "time" line and the line "comm-only: ...";
# with --nocomm-lib LIB, NAME.bound and NAME.original also run under
# LD_PRELOAD=LIB with TUCANA_NOCOMM_VERBOSE=1 at the arguments --bound-args
# (default ARGS; choose a size without the serial self-check, whose gather
# only the Original makes), and every rank must have suppressed as many
# sends and receives in both, and some: the bound makes the Original's
# point-to-point calls.
#
# usage: check_variants.sh [--variants V1,V2,...] [--native-np N1,N2,...]
#          [--bound-args "ARGS"] [--nocomm-lib LIB]
#          NAME BINDIR NATIVE_MPIRUN NATIVE_NP TUCANA_RUN P VF [ARGS...]
# (default variants: original,overlap,tucana,virtualized)
set -u
variants="original overlap tucana virtualized"
extra_np=""
bound_args=""
bound_args_set=""
nocomm_lib=""
while [ $# -gt 0 ]; do
  case ${1:-} in
    --variants) variants=$(echo "${2:-}" | tr ',' ' '); shift 2 ;;
    --native-np) extra_np=$(echo "${2:-}" | tr ',' ' '); shift 2 ;;
    --bound-args) bound_args=${2:-}; bound_args_set=1; shift 2 ;;
    --nocomm-lib) nocomm_lib=${2:-}; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 7 ] || [ -z "$variants" ]; then
  echo "usage: $0 [--variants V1,V2,...] [--native-np N1,N2,...] [--bound-args \"ARGS\"] [--nocomm-lib LIB] NAME BINDIR NATIVE_MPIRUN NATIVE_NP TUCANA_RUN P VF [ARGS...]" >&2
  exit 2
fi
name=$1 bindir=$2 mpirun=$3 nnp=$4 run=$5 p=$6 vf=$7
shift 7

. "$(dirname "$0")/check_common.sh"
[ -n "$bound_args_set" ] || bound_args="$*"

# nocomm_calls LAUNCH EXE ARGS: each rank's "rank R: S sends, R receives"
# that libtucana_nocomm suppressed in a run of EXE ARGS under LAUNCH, sorted
# (the run's own verdict does not matter: nothing was transferred).
nocomm_calls() {
  if [ -n "$oversub" ]; then # Open MPI
    pre="-x LD_PRELOAD=$nocomm_lib -x TUCANA_NOCOMM_VERBOSE=1"
  else
    pre="-genv LD_PRELOAD $nocomm_lib -genv TUCANA_NOCOMM_VERBOSE 1"
  fi
  # $1 (the launcher and its options), $pre and $3 are split into words on purpose.
  $1 $pre "$2" $3 2>&1 | sed -n 's/^tucana-nocomm: rank \([0-9]*\) suppressed \([0-9]*\) sends, \([0-9]*\) receives.*/rank \1: \2 sends, \3 receives/p' | sort
}

# check_bound LAUNCH ARGS...: the bound variant (see the header comment).
check_bound() {
  launch=$1
  shift
  out=$($launch "$bindir/$name.bound" "$@" 2>&1)
  st=$?
  echo "== bound ($launch $bindir/$name.bound $*): exit $st"
  echo "$out"
  if [ $st -ne 0 ]; then failed="$failed bound:exit-$st"; fi
  if ! echo "$out" | grep -q '^comm-only: '; then failed="$failed bound:no-comm-only-line"; fi
  if ! echo "$out" | grep -q '^time '; then failed="$failed bound:no-time"; fi
  if [ -z "$nocomm_lib" ]; then
    echo "== bound: point-to-point calls not compared (no --nocomm-lib)"
    return
  fi
  orig_calls=$(nocomm_calls "$launch" "$bindir/$name.original" "$bound_args")
  bound_calls=$(nocomm_calls "$launch" "$bindir/$name.bound" "$bound_args")
  echo "== point-to-point calls at '$bound_args' (suppressed by libtucana_nocomm)"
  printf 'original:\n%s\nbound:\n%s\n' "$orig_calls" "$bound_calls"
  if [ -z "$bound_calls" ] || [ "$orig_calls" != "$bound_calls" ]; then
    failed="$failed bound:calls-differ"
  elif echo "$bound_calls" | grep -q ': 0 sends, 0 receives'; then
    failed="$failed bound:no-messages"
  fi
}

for variant in $variants; do
  exe="$bindir/$name.$variant"
  case $variant in
    bound) check_bound "$mpirun -np $nnp $oversub" "$@"; continue ;;
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
