#!/usr/bin/python3
"""test_bound_checks.py -- self-checks of run_bench.py's report against the
bound and of its ampi variant, with fake timings and a fake AMPI build (no
network, no MPI, no benchmark programs):

  1. bound(): 100 * (T_orig - max(W, C)) / (T_orig - W);
  2. the report of a made-up results.csv: bound %, % of bound, a variant above
     the bound beyond the noise marked (and one within the noise not), and
     the check "translated never slower than virtualized at the same VF"
     (flagged beyond the noise, passed within it, flagged without a noise
     estimate below 3 runs);
  3. the ampi variant's command lines (--dry-run) against a fake --ampi DIR,
     and one whole run through the fake ampicc and charmrun (--rate shm).

Run by CTest as bench.harness.bound (label bench).
"""

import csv
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.dirname(HERE)
sys.path.insert(0, HARNESS)
import run_bench as rb  # noqa: E402

failures = []


def check(cond, what):
    print(("PASS: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def close(a, b):
    return a is not None and abs(a - b) < 1e-9


# ------------------------------------------------------------ 1. bound()
check(close(rb.bound(2.0, 1.0, 1.5), 50.0), "bound: the exchange alone (1.5 s) longer than W (1.0 s)")
check(close(rb.bound(2.0, 1.0, 0.5), 100.0), "bound: the exchange alone shorter than W: 100%")
check(rb.bound(2.0, 2.0, 1.0) is None, "bound: n/a when NoComm is not faster than Original")
check(rb.bound(2.0, 1.0, None) is None, "bound: n/a without a bound time")


# ------------------------------------------------- 2. report on fake times
def runs(prog, variant, vf, times, np_=2):
    return [{"program": prog, "variant": variant, "np": np_, "vf": vf or "", "rep": i + 1,
             "seconds": f"{t:.6f}", "status": "ok", "ranks": np_ * (vf or 1),
             "checksum": "" if variant in ("nocomm", "bound") else "42",
             "exit": 0, "wall_seconds": "1", "network": "tbf 1gbit", "main": 1, "log": ""}
            for i, t in enumerate(times)]


def three(t):
    return [t - 0.01, t, t + 0.01]  # median t, MAD 0.01


rows = (runs("jacobi3d", "original", None, three(2.0)) +
        runs("jacobi3d", "nocomm", None, three(1.0)) +           # W = 1.0
        runs("jacobi3d", "bound", None, three(1.5)) +            # C = 1.5: bound 50%
        runs("jacobi3d", "tucana", 2, three(1.6)) +              # hidden 40%, 80% of the bound
        runs("jacobi3d", "virtualized", 2, three(1.7)) +         # hidden 30%
        runs("jacobi3d", "explicit", 2, three(1.72)) +           # 0.02 s slower: within 0.04 s
        runs("jacobi3d", "tucana", 4, three(1.2)) +              # hidden 80%: 30 points over the bound
        runs("jacobi3d", "virtualized", 4, three(1.1)) +         # tucana 0.1 s slower: flagged
        runs("jacobi3d", "explicit", 4, [1.47, 1.52, 1.57]) +    # 48%: under the bound + its noise
        runs("stencil13", "original", None, [2.0, 2.0]) +
        runs("stencil13", "nocomm", None, [1.0, 1.0]) +
        runs("stencil13", "bound", None, [0.5, 0.5]) +           # C < W: bound 100%
        runs("stencil13", "tucana", 4, [1.31, 1.31]) +           # 2 runs: no noise estimate
        runs("stencil13", "virtualized", 4, [1.3, 1.3]))
tmp = tempfile.mkdtemp(prefix="test_bound_checks.")
try:
    out = os.path.join(tmp, "report")
    os.makedirs(out)
    opts = rb.parse_args(["--programs", "jacobi3d,stencil13", "--variants",
                          "original,nocomm,bound,tucana,virtualized,explicit",
                          "--vf", "4", "--reps", "3", "--out", out, "--rate", "shm"])
    ctx = {"layout": {"jacobi3d": {"vf": 4, "args": "x"}, "stencil13": {"vf": 4, "args": "y"}},
           "notes": [], "network": "tbf 1gbit", "host": "test", "ncores": 2, "mpi_version": "fake",
           "date": "today", "commit": "none", "cmdline": "test"}
    rb.write_reports(opts, ctx, rows)
    with open(os.path.join(out, "vf_sweep.csv")) as f:
        sweep = {(r["program"], r["variant"], r["vf"]): r for r in csv.DictReader(f)}
    with open(os.path.join(out, "summary.csv")) as f:
        summary = {(r["program"], r["variant"], r["vf"]): r for r in csv.DictReader(f)}
    with open(os.path.join(out, "checks.csv")) as f:
        chk = {(r["program"], r["variant"], r["vf"]): r for r in csv.DictReader(f)}
    with open(os.path.join(out, "summary.md")) as f:
        md = f.read()

    r = sweep[("jacobi3d", "tucana", "2")]
    check(r["bound_pct"] == "50.0" and r["hidden_pct"] == "40.0" and r["share_of_bound_pct"] == "80.0"
          and not r["above_bound"], f"tucana VF 2: hidden 40.0, bound 50.0, 80.0% of it ({r})")
    r = summary[("jacobi3d", "bound", "")]
    check(r["hidden_pct"] == "50.0" and r["share_of_bound_pct"] == "" and "sets the bound" in r["note"],
          f"the bound row: hidden 50.0 = the bound, no share, 'sets the bound' ({r})")
    r = sweep[("jacobi3d", "tucana", "4")]
    check(r["above_bound"] == "yes" and "not a bound" in r["note"] and r["share_of_bound_pct"] == "160.0",
          f"tucana VF 4 (80% against 50%) marked above the bound ({r})")
    check(summary[("jacobi3d", "tucana", "4")]["above_bound"] == "yes", "summary.csv carries the mark too")
    r = sweep[("jacobi3d", "explicit", "4")]
    check(r["hidden_pct"] == "48.0" and not r["above_bound"],
          f"explicit VF 4 (48%, under the bound) not marked ({r})")
    r = summary[("stencil13", "tucana", "4")]
    check(r["bound_pct"] == "100.0" and r["share_of_bound_pct"] == "69.0",
          f"stencil13: the exchange alone is shorter than W: bound 100.0 ({r})")
    check("exchange alone is shorter" in summary[("stencil13", "bound", "")]["note"],
          "stencil13's bound row says the exchange is shorter than the computation")
    check("Bound on hidden %: 50.0%" in md and "% of bound" in md, "summary.md: the bound line and column")
    check("**Above the bound**" in md and "jacobi3d tucana VF 4 (80.0% against 50.0%)" in md,
          "summary.md lists the variants above the bound")

    check(chk[("jacobi3d", "tucana", "4")]["verdict"] == "slower",
          f"tucana VF 4 0.1 s slower than virtualized (noise 0.04): flagged ({chk.get(('jacobi3d', 'tucana', '4'))})")
    check(chk[("jacobi3d", "explicit", "2")]["verdict"] == "ok",
          "explicit VF 2 0.02 s slower (noise 0.04): not flagged")
    check(chk[("jacobi3d", "tucana", "2")]["verdict"] == "ok", "tucana VF 2 faster: not flagged")
    check(chk[("stencil13", "tucana", "4")]["verdict"] == "slower (no noise estimate)",
          "2 runs each: flagged without a noise estimate")
    check("slower than virtualized at VF 4" in sweep[("jacobi3d", "tucana", "4")]["note"],
          "the flagged row's note says so")
    check("slower than virtualized" not in sweep[("jacobi3d", "explicit", "2")]["note"],
          "an unflagged row's note does not")
    check(chk[("jacobi3d", "explicit", "4")]["verdict"] == "slower",
          "explicit VF 4 0.42 s slower (noise 0.12): flagged")
    check("## Checks" in md and "**3 of 5 flagged.**" in md, "summary.md's Checks section counts 3 of 5")

    # ----------------------------------------- 3. ampi against a fake DIR
    ampi = os.path.join(tmp, "charm", "mpi-linux-x86_64")
    os.makedirs(os.path.join(ampi, "bin"))
    # ampicc: writes an executable that prints what a jacobi3d run prints;
    # charmrun: drops +pN, ++quiet and the mpirun options, runs the binary.
    scripts = {
        "ampicc": '#!/bin/sh\necho "$@" > "$(dirname "$0")/ampicc.args"\n'
                  'while [ "$1" != -o ]; do shift; done\n'
                  'printf \'#!/bin/sh\\necho "args $*"\\necho "time 0.25"\\n'
                  'echo "checksum 7"\\necho "jacobi3d: OK"\\n\' > "$2"\nchmod +x "$2"\n',
        "charmrun": '#!/bin/sh\necho "$@" >> "$(dirname "$0")/charmrun.args"\n'
                    'while [ $# -gt 0 ]; do case $1 in +p*|++quiet|--bind-to|core|none|--oversubscribe) '
                    'shift ;; *) exec "$@" ;; esac; done\n'}
    for name, text in scripts.items():
        path = os.path.join(ampi, "bin", name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    py = sys.executable
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    dry = subprocess.run([py, os.path.join(HARNESS, "run_bench.py"), "--build", os.path.join(tmp, "nobuild"),
                          "--dry-run", "--rate", "shm", "--programs", "jacobi3d,cannon", "--variants", "ampi",
                          "--np", "2", "--vf", "2", "--vf-sweep", "2,4", "--reps", "1",
                          "--ampi", ampi, "--ampi-args", "+tcharm_stacksize 1M",
                          "--out", os.path.join(tmp, "dry")], capture_output=True, text=True, env=env)
    lines = dry.stdout.splitlines()
    src = os.path.join(os.path.dirname(os.path.dirname(HARNESS)), "bench", "programs")
    want_build = (f"# build: {ampi}/bin/ampicc -O2 -o {tmp}/dry/ampi/jacobi3d.ampi "
                  f"{src}/jacobi3d/jacobi3d.c")
    check(dry.returncode == 0 and want_build in lines, "--dry-run prints the ampicc command")
    if want_build not in lines:
        print(dry.stdout + dry.stderr)
    check(f"# build: {ampi}/bin/ampicc -O2 -o {tmp}/dry/ampi/cannon.ampi {src}/cannon/cannon.c -lopenblas"
          in lines, "cannon's ampi build links OpenBLAS")
    args = rb.PROGRAMS["jacobi3d"]["args"]
    for vf in (2, 4):
        want = (f"{ampi}/bin/charmrun +p2 ++quiet --bind-to core {tmp}/dry/ampi/jacobi3d.ampi "
                f"+vp{2 * vf} +tcharm_stacksize 1M {args}")
        check(want in lines, f"ampi at VF {vf}: 2 processes, {2 * vf} virtual ranks, bound like Original")
    nodir = subprocess.run([py, os.path.join(HARNESS, "run_bench.py"), "--dry-run", "--rate", "shm",
                            "--programs", "jacobi3d", "--variants", "ampi,original",
                            "--bin", "original=/bin/true", "--out", os.path.join(tmp, "nodir")],
                           capture_output=True, text=True, env=env)
    check("no ampi variant without --ampi DIR" in nodir.stdout and "charmrun" not in nodir.stdout,
          "without --ampi the variant is skipped with a note")
    bad = subprocess.run([py, os.path.join(HARNESS, "run_bench.py"), "--dry-run", "--rate", "shm",
                          "--programs", "jacobi3d", "--variants", "ampi", "--ampi", tmp,
                          "--out", os.path.join(tmp, "bad")], capture_output=True, text=True, env=env)
    check(bad.returncode != 0 and "bin/ampicc" in bad.stderr, "--ampi DIR without ampicc: an error")

    real = subprocess.run([py, os.path.join(HARNESS, "run_bench.py"), "--build", os.path.join(tmp, "nobuild"),
                           "--rate", "shm", "--programs", "jacobi3d", "--variants", "ampi", "--np", "2",
                           "--vf", "2", "--vf-sweep", "none", "--reps", "2", "--no-plots",
                           "--args", "jacobi3d=8 8 8 2 1", "--ampi", ampi,
                           "--out", os.path.join(tmp, "real")], capture_output=True, text=True, env=env)
    with open(os.path.join(tmp, "real", "results.csv")) as f:
        res = list(csv.DictReader(f))
    check(real.returncode == 0 and len(res) == 2 and all(
        r["status"] == "ok" and r["seconds"] == "0.250000" and r["ranks"] == "4" for r in res),
        f"a run through the fake ampicc and charmrun: 2 ok runs of 4 virtual ranks ({res})")
    with open(os.path.join(ampi, "bin", "charmrun.args")) as f:
        calls = f.read().splitlines()
    check(len(calls) == 2 and calls[0].endswith("/real/ampi/jacobi3d.ampi +vp4 8 8 8 2 1"),
          f"charmrun ran the built binary with +vp4 and the arguments ({calls})")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print("test_bound_checks.py: " + ("all passed" if not failures else f"{len(failures)} FAILED"))
sys.exit(1 if failures else 0)
