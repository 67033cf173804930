#!/usr/bin/env bash
# tucana-run as an mpirun user meets it: mpirun's options (or their MPICH
# equivalents), quoting kept, errors before launch, exit statuses, output
# per subrank (whole lines, --tag-output, --output-filename), and a job with
# --trace stopped by one Ctrl-C.
# Usage: launcher_test.sh BIN_DIR
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"

cat >env.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* usage: env [abort CODE | loop SECONDS | pieces] */
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 2 && strcmp(argv[1], "abort") == 0 && rank == size - 1) MPI_Abort(MPI_COMM_WORLD, atoi(argv[2]));
  if (argc > 2 && strcmp(argv[1], "loop") == 0) {
    for (int i = 0; i < 10 * atoi(argv[2]); i++) { MPI_Barrier(MPI_COMM_WORLD); usleep(100000 / size); }
  }
  if (argc > 1 && strcmp(argv[1], "pieces") == 0) {
    /* Each line is printed in three pieces with MPI calls between them. */
    for (int i = 0; i < 3; i++) {
      printf("rank %d: part A,", rank);
      MPI_Barrier(MPI_COMM_WORLD);
      printf(" part B,");
      MPI_Barrier(MPI_COMM_WORLD);
      printf(" part C\n");
      fprintf(stderr, "rank %d: to stderr", rank);
      MPI_Barrier(MPI_COMM_WORLD);
      fprintf(stderr, " in two pieces\n");
    }
  }
  if (rank == 0) printf("FOO=%s QUOTED=%s size %d\n", getenv("FOO") ? getenv("FOO") : "-",
                        getenv("QUOTED") ? getenv("QUOTED") : "-", size);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
C
check "build" "$bin/tucanacc" -o env env.c
run=("$bin/tucana-run")

# --- version and help ----------------------------------------------------------
check "--version" expect_output "tucana-run \\(Tucana\\) [0-9]+\\.[0-9]+" "${run[@]}" --version
check "help lists mpirun's options" expect_output "--tag-output" "${run[@]}" --help

# --- mpirun's options -----------------------------------------------------------
check "-x and --mpirun-args with a quoted value" expect_output "^FOO=bar QUOTED=a b 'c' size 4" \
  "${run[@]}" -np 2 --vf 2 -x FOO=bar --mpirun-args "-x \"QUOTED=a b 'c'\"" ./env
check "--mpirun-arg keeps one argument" expect_output "^FOO=- QUOTED=x y size 2" \
  env QUOTED="x y" "${run[@]}" -np 2 --mpirun-arg -x --mpirun-arg QUOTED ./env
check "--bind-to, --map-by, --oversubscribe, -H run" expect_output "size 6" \
  "${run[@]}" -np 3 --vf 2 --bind-to none --map-by slot --oversubscribe -H localhost:3 ./env
echo "localhost slots=4" >hosts
check "--hostfile runs" expect_output "size 2" "${run[@]}" -np 2 --hostfile hosts ./env
check "Open MPI command line" expect_output \
  "-x FOO=bar .*--bind-to core .*--map-by slot .*--host h1 .*--hostfile hosts .*--mca btl self" \
  "${run[@]}" --dry-run --mpirun mpirun -np 2 -x FOO=bar --bind-to core --map-by slot -H h1 --hostfile hosts --mca btl self,tcp ./env
if command -v mpiexec.mpich >/dev/null 2>&1; then
  check "MPICH command line" expect_output \
    "-genv FOO bar -genvlist PATH -bind-to core -map-by slot -hosts h1 -f hosts " \
    "${run[@]}" --dry-run --mpirun mpiexec.mpich -np 2 -x FOO=bar -x PATH --bind-to core --map-by slot -H h1 --hostfile hosts ./env
  check "MPICH: --mca refused" expect_fail_with "Open MPI parameter" \
    "${run[@]}" --dry-run --mpirun mpiexec.mpich --mca btl tcp ./env
fi
check "unbalanced quote in --mpirun-args" expect_fail_with "--mpirun-args: cannot split" \
  "${run[@]}" --mpirun-args "-x 'FOO" ./env

# --- errors before launch, attribution ------------------------------------------
check "stack size below the minimum, before launch" expect_fail_with "--stack-size 1k is too small" \
  "${run[@]}" --dry-run --stack-size 1k ./env
check "helper stack size below the minimum, before launch" expect_fail_with "--helper-stack-size 1k is too small" \
  "${run[@]}" --dry-run --helper-stack-size 1k ./env
check "--helper-stack-size reaches the processes" expect_output "TUCANA_HELPER_STACK_SIZE=4M" \
  "${run[@]}" --dry-run --helper-stack-size 4M ./env
check "--progress reaches the processes" expect_output "TUCANA_PROGRESS=worker" \
  "${run[@]}" --dry-run --progress worker ./env
check "a bad --progress, before launch" expect_fail_with "--progress must be 'any', 'worker' or 'multiple'" \
  "${run[@]}" --dry-run --progress serialized ./env
check "a negative --sched-seed, before launch" expect_fail_with "--sched-seed must be a non-negative integer" \
  "${run[@]}" --dry-run --sched-seed -3 ./env
check "--sched-seed reaches the processes" expect_output "TUCANA_SCHED_SEED=42" \
  "${run[@]}" --dry-run --sched-seed 42 ./env
for opt in "--priority-scope process:worker:TUCANA_PRIORITY_SCOPE" "--wake home:waker:TUCANA_WAKE" \
           "--pack split:locked:TUCANA_PACK"; do
  name=${opt%% *}; rest=${opt#* }; good=${rest%%:*}; rest=${rest#*:}; other=${rest%%:*}; var=${rest#*:}
  check "$name $other reaches the processes" expect_output "$var=$other" "${run[@]}" --dry-run "$name" "$other" ./env
  check "a bad $name, before launch" expect_fail_with "$name must be '$good' or '$other' \\(got 'x'\\)" \
    "${run[@]}" --dry-run "$name" x ./env
done
check "a bad TUCANA_PACK stops the program with the variable named" expect_fail_with \
  "TUCANA_PACK=sideways: expected 'split' or 'locked'" env TUCANA_PACK=sideways ./env
check "a seeded run gives the program's results" expect_output "size 8" \
  "${run[@]}" -np 2 --workers 2 --vf 2 --sched-seed 7 ./env
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >plain.c
if command -v mpicc >/dev/null 2>&1 && mpicc -o plain plain.c 2>/dev/null; then
  check "a program built with plain mpicc is refused" expect_fail_with "not built with tucanacc" "${run[@]}" -np 2 ./plain
  check "... unless --no-program-check" "${run[@]}" --dry-run --no-program-check -np 2 ./plain
fi
check "MPI_Abort's code is the job's status" expect_status 7 "${run[@]}" -np 2 --vf 2 ./env abort 7

# --- output ---------------------------------------------------------------------
# Lines of different subranks never mix, on stdout and stderr.
check "whole lines (2 processes x 2 workers x 2 subranks)" bash -c "
  '${run[0]}' -np 2 --workers 2 --vf 2 ./env pieces >lines.out 2>lines.err &&
  test \$(grep -cxE 'rank [0-7]: part A, part B, part C' lines.out) -eq 24 &&
  test \$(grep -cxE 'rank [0-7]: to stderr in two pieces' lines.err) -eq 24"
check "--tag-output tags each line with its subrank" bash -c "
  '${run[0]}' -np 2 --vf 2 --tag-output ./env pieces >tagged.out 2>&1 &&
  for r in 0 1 2 3; do test \$(grep -cxF \"[\$r] rank \$r: part A, part B, part C\" tagged.out) -eq 3 || exit 1; done"
check "--output-filename writes one file per subrank" bash -c "
  '${run[0]}' -np 2 --vf 2 --output-filename outdir ./env pieces >/dev/null 2>&1 &&
  for r in 0 1 2 3; do test \$(grep -cxF \"rank \$r: part A, part B, part C\" outdir/rank.\$r/stdout) -eq 3 &&
    test \$(grep -cxF \"rank \$r: to stderr in two pieces\" outdir/rank.\$r/stderr) -eq 3 || exit 1; done"

# --- one Ctrl-C stops a traced job, and the trace is written --------------------
interrupt_traced_job() {
  # A background job of a script ignores SIGINT unless told otherwise.
  env --default-signal=INT "${run[@]}" -np 2 --vf 2 --trace "$work/int.json" ./env loop 60 >int.log 2>&1 &
  local pid=$! waited=0
  sleep 3
  kill -INT "$pid"
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 30 ]; do sleep 1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then echo "tucana-run still running 30 s after SIGINT"; kill -KILL "$pid"; return 1; fi
  local status=0
  wait "$pid" || status=$?
  [ "$status" -ne 0 ] || { echo "interrupted job ended with status 0"; return 1; }
  if pgrep -f "$work/env loop" >/dev/null 2>&1 || pgrep -f "./env loop 60" >/dev/null 2>&1; then
    echo "processes of the job are still running"; pkill -KILL -f "env loop 60"; return 1
  fi
  grep -q '"traceEvents"' "$work/int.json" || { echo "no trace written"; cat int.log; return 1; }
}
check "one SIGINT stops a job with --trace and writes the trace" interrupt_traced_job
check "a failed job (MPI_Abort) still writes its trace" bash -c "
  '${run[0]}' -np 2 --vf 2 --trace '$work/abort.json' ./env abort 7 >abort.log 2>&1; test \$? -eq 7 &&
  grep -q '\"traceEvents\"' '$work/abort.json' && grep -q 'subrank' '$work/abort.json'"

finish
