# check_common.sh -- what the correctness checks of the benchmark programs
# share (sourced by check_variants.sh and tpod/check_tpod.sh): the
# environment of the runs, check_run (one run and its checks) and
# check_verdict (the checksums of all runs, and the verdict line).
# Expects $name (the program: its runs must print "NAME: OK") and $mpirun
# (the native launcher); sets $oversub (the native launcher's option that
# allows more ranks than cores, or nothing).

# Open MPI refuses root without these, and more ranks than cores without
# --oversubscribe.
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
# OpenBLAS (cannon) must not start threads of its own next to the ranks.
OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export OPENBLAS_NUM_THREADS
oversub=""
if $mpirun --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi

failed=""
sums=""

# check_run LABEL LAUNCH EXE ARGS...: runs LAUNCH EXE ARGS (LAUNCH split into
# words: the launcher and its options), prints the command and the output,
# requires exit status 0, a line "NAME: OK" and a checksum line, and records
# the checksum under LABEL.
check_run() {
  label=$1 launch=$2 exe=$3
  shift 3
  # $launch is split into words on purpose.
  out=$($launch "$exe" "$@" 2>&1)
  st=$?
  echo "== $label ($launch $exe $*): exit $st"
  echo "$out"
  sum=$(echo "$out" | grep '^checksum ' | head -n 1)
  if [ $st -ne 0 ]; then failed="$failed $label:exit-$st"; fi
  if ! echo "$out" | grep -q "^$name: OK\$"; then failed="$failed $label:no-OK-line"; fi
  if [ -z "$sum" ]; then failed="$failed $label:no-checksum"; fi
  sums="$sums$label $sum
"
}

# check_verdict: requires one checksum from all runs; prints
# "check_variants: ok (NAME, checksum ...)" and returns 0, or
# "check_variants: FAILED (NAME: what failed)" and returns 1.
check_verdict() {
  distinct=$(printf '%s' "$sums" | sed 's/^[^ ]* //' | sort -u | wc -l)
  if [ "$distinct" -ne 1 ]; then
    failed="$failed checksums-differ"
    printf '%s' "$sums"
  fi
  if [ -n "$failed" ]; then
    echo "check_variants: FAILED ($name:$failed)"
    return 1
  fi
  echo "check_variants: ok ($name, $(printf '%s' "$sums" | head -n 1 | sed 's/^[^ ]* //'))"
}
