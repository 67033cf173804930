#!/bin/sh
# task_trace.sh TUCANA_RUN PROGRAM: runs the tasks test with --trace and
# checks that the trace shows task spans (category "task", the subrank and
# task number as arguments) on the workers. Prints "task_trace: ok".
set -u
run=$1 prog=$2
out=task_trace.$$.json
trap 'rm -f "$out" "$out".*' EXIT
"$run" -np 2 --workers 2 --vf 1 --trace "$out" "$prog" >task_trace.$$.log 2>&1 || {
  cat task_trace.$$.log; rm -f task_trace.$$.log; echo "task_trace: FAILED: the run failed"; exit 1; }
rm -f task_trace.$$.log
grep -q '"cat": "task"' "$out" || { echo "task_trace: FAILED: no task span in the trace"; exit 1; }
grep -Eq '"cat": "task".*"args": \{"subrank": [0-9]+, "task": [0-9]+\}' "$out" ||
  { echo "task_trace: FAILED: task spans without subrank and task number"; exit 1; }
grep -Eq '"cat": "task".*"tid": 1' "$out" || { echo "task_trace: FAILED: no task span on worker 1"; exit 1; }
echo "task_trace: ok"
