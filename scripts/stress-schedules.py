#!/usr/bin/env python3
"""Runs Tucana's conformance programs and translated examples under seeded
random schedules (TUCANA_SCHED_SEED) and reports every failing seed.

  scripts/stress-schedules.py [--build DIR] [--seeds N] [--first S]
                              [--per-seed K] [--jobs J] [--timeout T]
                              [--filter REGEX]

Seed s (s = first .. first+N-1) runs K programs: seed by seed the list of
programs is walked in turn, so that every program meets about N*K/P seeds,
and each run takes one of the layouts (LAYOUTS below, up to 8 workers in
one process: oversubscribed on any machine with fewer cores) in turn too.
K = 0 (the default) runs every program at every seed. A conformance
program passes when it exits 0 and prints its "OK <name>" line; a
translated example passes when its standard output equals the plain-MPI
run of the original program with as many ranks (timings aside). Every failure is
printed with the command that reproduces it (the seed names the schedule's
random decisions; the threads' own timing still varies, so a failure may
take a few repetitions of its command to come back). Exit status: 0 when
nothing failed.

The programs are the ones the build's CTest knows (labels mpi and
example), so the build must exist: scripts/test.sh makes it.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# (processes, workers per process, subranks per worker): 16 ranks each (a
# square, as cannon2d needs, and a power of two), so
# that one plain-MPI reference run per example serves every layout.
LAYOUTS = [(1, 2, 8), (1, 4, 4), (2, 2, 4), (2, 4, 2), (1, 8, 2)]


def ctest_programs(build):
    """The conformance programs and examples registered with CTest."""
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    conformance, examples = {}, {}
    for t in json.loads(out)["tests"]:
        cmd = t.get("command") or []
        if len(cmd) < 3:
            continue
        script = os.path.basename(cmd[1])
        if script == "expect_ok.sh" and any(os.path.basename(c) == "tucana-run" for c in cmd):
            # expect_ok.sh NAME tucana-run [options] PROGRAM [ARGS]
            name, run = cmd[2], cmd[3]
            i = 4
            while i < len(cmd) and cmd[i].startswith("-"):
                i += 2  # every option of these commands takes a value
            if i < len(cmd) and os.path.basename(cmd[i]) == name:
                conformance.setdefault(name, (run, cmd[i], cmd[i + 1:]))
        elif script == "compare_run.sh":
            # compare_run.sh LAUNCHER NATIVE TUCANA_RUN VIRTUAL P V [ARGS]
            launcher, native, run, virtual = cmd[2:6]
            name = os.path.basename(virtual)
            examples.setdefault(name, (launcher, native, run, virtual, cmd[8:]))
    return conformance, examples


def normalize(text):
    return re.sub(r" time [0-9.eE+-]+( s)?", "", text)


def run(cmd, env, timeout):
    """(exit status or "timeout", stdout, stderr)"""
    def text(x):
        return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout", text(e.stdout), text(e.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--per-seed", type=int, default=0, help="programs per seed (0: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--filter", default="", help="only programs whose name matches")
    args = ap.parse_args()

    conformance, examples = ctest_programs(args.build)
    names = sorted(n for n in conformance if re.search(args.filter, n)) + \
        sorted("example:" + n for n in examples if re.search(args.filter, n))
    if not names:
        sys.exit("stress-schedules: no programs found in %s (build it first: scripts/test.sh)" % args.build)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               TUCANA_DEADLOCK_TIMEOUT=os.environ.get("TUCANA_DEADLOCK_TIMEOUT", "20"))

    # Reference outputs of the examples: 16 ranks of plain MPI.
    reference = {}
    for n in names:
        if n.startswith("example:"):
            launcher, native, _, _, extra = examples[n[8:]]
            over = ["--oversubscribe"] if "Open MPI" in subprocess.run(
                [launcher, "--version"], capture_output=True, text=True).stdout else []
            status, out, err = run([launcher, "-np", "16"] + over + [native] + extra, env, args.timeout)
            if status != 0:
                # (e.g. multigrid's grid does not divide among 16 ranks)
                print("stress-schedules: %s left out: its plain-MPI run at 16 ranks fails: %s" %
                      (n, (out + err).strip().splitlines()[0] if (out + err).strip() else "exit status %s" % status))
                continue
            reference[n] = normalize(out)
    names = [n for n in names if not n.startswith("example:") or n in reference]

    per_seed = args.per_seed or len(names)
    jobs = []
    for s in range(args.first, args.first + args.seeds):
        for j in range(per_seed):
            k = (s - args.first) * per_seed + j
            jobs.append((s, names[k % len(names)], LAYOUTS[(k // len(names) + k) % len(LAYOUTS)]))

    def one(job):
        seed, name, (p, w, v) = job
        layout = ["-np", str(p), "--workers", str(w), "--vf", str(v)]
        if name.startswith("example:"):
            _, _, tucana_run, program, extra = examples[name[8:]]
        else:
            tucana_run, program, extra = conformance[name]
        cmd = [tucana_run] + layout + [program] + extra
        status, out, err = run(cmd, dict(env, TUCANA_SCHED_SEED=str(seed)), args.timeout)
        # Standard output must be the same as plain MPI's; standard error
        # may hold schedule-dependent advice (a superblock region that
        # blocked on a request its dependencies do not cover).
        if status != 0:
            why = "timed out after %gs" % args.timeout if status == "timeout" else "exit status %s" % status
        elif name.startswith("example:"):
            why = None if normalize(out) == reference[name] else "output differs from plain MPI"
        else:
            lines = out.splitlines()
            why = None if lines.count("OK " + name) == 1 and not any(l.startswith("FAIL ") for l in lines) \
                else "no OK line"
        return job, cmd, why, out + err

    began = time.monotonic()
    failures = 0
    done = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for (seed, name, layout), cmd, why, out in pool.map(one, jobs):
            done += 1
            if why:
                failures += 1
                print("FAIL seed %d %s at -np %d --workers %d --vf %d: %s" % ((seed, name) + layout + (why,)))
                print("  reproduce: TUCANA_SCHED_SEED=%d %s" % (seed, shlex.join(cmd)))
                print("  " + "\n  ".join(out.splitlines()[-15:]))
                sys.stdout.flush()
            if done % 500 == 0:
                print("... %d of %d runs, %d failed (%.0f s)" % (done, len(jobs), failures, time.monotonic() - began))
                sys.stdout.flush()
    print("stress-schedules: %d runs (seeds %d..%d, %d programs, %d layouts): %d failed, %.0f s" %
          (len(jobs), args.first, args.first + args.seeds - 1, len(names), len(LAYOUTS), failures,
           time.monotonic() - began))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
