#!/usr/bin/python3
"""run_bench.py -- Tucana's benchmark harness.

Runs the benchmark programs (bench/programs/<name>/) in their variants,
interleaved and repeated, over the emulated interconnect (a network namespace
whose loopback is throttled with tc tbf: netns-run.sh), and writes the raw
times, a summary with speedups and hidden %, a VF sweep and plots.

    bench/harness/run_bench.py --build build --programs jacobi3d,cannon \\
        --variants original,overlap,nocomm,tucana,virtualized \\
        --np 2 --vf 4 --reps 5 --rate 1gbit --out bench/results/mine

Variants (P = --np, V = --vf):
  original     BUILD/bench/programs/NAME/NAME.original     mpirun -np P --bind-to core
  overlap      BUILD/bench/programs/NAME/NAME.overlap      mpirun -np P --bind-to core
  nocomm       the original binary, point-to-point transfers suppressed with
               LD_PRELOAD=libtucana_nocomm.so (tools/nocomm/)
  tucana       BUILD/bench/programs/NAME/NAME.tucana       tucana-run -np P --vf V
  virtualized  BUILD/bench/programs/NAME/NAME.virtualized  tucana-run -np P --vf V
  hybrid       BUILD/bench/programs/NAME/NAME.hybrid       tucana-run -np P --tasks V
               (MPI between ranks, V tasks per rank; programs with a
               NAME_hybrid.c only, skipped for the others)
  bound        BUILD/bench/programs/NAME/NAME.bound        mpirun -np P --bind-to core
               (NAME.c built with -DBENCH_COMM_ONLY: the exchange alone)
  ampi         NAME.c built here with DIR/bin/ampicc -O2 (--ampi DIR, a
               Charm++ AMPI build)   DIR/bin/charmrun +pP ... NAME.ampi +vpP*V
All variants of a program solve the same global problem: the native ones and
hybrid on P ranks, tucana, virtualized and ampi on P*V (virtual) ranks over
P processes.

hidden % = 100 * (T_original - T_variant) / (T_original - T_nocomm), medians.
bound    = 100 * (T_original - max(T_nocomm, T_bound)) / (T_original - T_nocomm):
           the best hidden % of any schedule (none ends before the computation
           alone, W = T_nocomm, or the exchange alone, C = T_bound); each
           variant's hidden % is also given as a share of it.

Only the Python standard library is needed to run; the plots use matplotlib
(Debian: python3-matplotlib, for /usr/bin/python3) and fall back to
hand-written SVG files when it is not available. See README.md.
"""

import argparse
import csv
import datetime
import math
import os
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import time

import plotting

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
NETNS_RUN = os.path.join(HERE, "netns-run.sh")

ALL_PROGRAMS = ["jacobi3d", "stencil13", "cannon", "irregular", "multigrid"]
ALL_VARIANTS = ["original", "overlap", "nocomm", "bound", "tucana", "virtualized", "hybrid"]
# bound: the Original source built with -DBENCH_COMM_ONLY (bench/programs/
# common/comm_only.h), its exchange alone; the bound on hidden %.
NATIVE_VARIANTS = ("original", "overlap", "nocomm", "bound")
# Variants that compute nothing right (no verdict, no checksum to compare).
NO_RESULT_VARIANTS = ("nocomm", "bound")
# The annotation ablation (issue 15): NAME_toucan.c (Toucan form, derived
# datatypes), NAME_explicit.c (receive/pack/send/unpack/compute regions),
# NAME_directional.c (those per direction); run like tucana, not by default,
# skipped for the programs without the source (GRAPH_SOURCES: another file).
GRAPH_VARIANTS = ("toucan", "explicit", "directional")
GRAPH_SOURCES = {("stencil13", "directional"): "stencil13_annotated.c"}
# ampi: the Original source built with AMPI's ampicc (--ampi DIR), run by
# charmrun on P processes with P*V virtual ranks (+vp); not by default.
AMPI_VARIANTS = ("ampi",)
KNOWN_VARIANTS = ALL_VARIANTS + list(GRAPH_VARIANTS) + list(AMPI_VARIANTS)
TUCANA_VARIANTS = ("tucana", "virtualized") + GRAPH_VARIANTS  # P processes x V subranks per worker
HYBRID_VARIANTS = ("hybrid",)                 # P ranks x V tasks per rank
SWEEP_VARIANTS = TUCANA_VARIANTS + HYBRID_VARIANTS + AMPI_VARIANTS  # swept over V
# The report's check: these (annotated, translated) are never slower than
# virtualized (the same program, unannotated) at the same VF.
TRANSLATED_VARIANTS = ("tucana",) + GRAPH_VARIANTS

# Per-program settings.  args: the problem of a normal run (the timed loop of
# the original variant takes roughly 0.5-1.5 s on 2 cores at 1gbit); quick: a
# small problem for --quick; rank_dependent: the problem itself depends on
# the rank count, so the P*V-subrank variants solve another instance than the
# P-rank ones (no checksum comparison across rank counts; none of the
# programs here since cannon and irregular take global sizes, but a --bin
# program may).  Empty args run the program's defaults.  Override with
# --args NAME="...".  Every size here must be valid for P and for P*V ranks
# (divisibility), for each VF of the sweep.
PROGRAMS = {
    # Sizes where communication is about half of Original's time at 1 gbit on
    # 2 processes (measured: bench/programs/README.md).
    # NX NY NZ ITERATIONS DIMS: split along z only
    "jacobi3d": {"args": "256 256 128 100 1", "quick": "64 64 64 10 1",
                 # --subrank-layout: DIMS 2 makes the subranks of a process tile
                 # the z face between the processes (grid 1 x 4V x 2 ... )
                 "virtual_args": "256 256 128 100 2"},
    # NX NY NZ ITERATIONS DIMS: two ghost layers
    "stencil13": {"args": "256 256 128 40 1", "quick": "48 48 48 10 1",
                  "virtual_args": "256 256 128 40 2"},
    # N REPEATS: any rank count R, a Q x Q block grid (Q = sqrt(R) for a
    # square R, else the smallest Q with R | Q^2: 2 for 2 and 4 ranks, 4 for
    # 8 and 16); Q must divide N
    # (libs: what the ampi variant links, as bench/programs/CMakeLists.txt)
    "cannon": {"args": "2048 1", "quick": "256 1", "libs": "-lopenblas"},
    # CELLS HALO ITERATIONS PARTS: a global instance (PARTS parts of the mesh
    # spread over the ranks), at most PARTS ranks; the benchmark size moves
    # about as much per iteration between 2 ranks (192k values each way) as
    # the earlier per-rank instance did
    "irregular": {"args": "3500000 22000 30 16", "quick": "160000 1000 10 16"},
    # NX NY NZ CYCLES DIMS LEVELS: LEVELS fixed so that every rank count runs
    # the same hierarchy
    "multigrid": {"args": "256 256 64 3 1 3", "quick": "32 32 32 2 1 3"},
    # not in the default list (original and hybrid only; tpod_sweep.py sweeps
    # its block size): NX NY NZ ITERATIONS BX BY BZ, the original ignores the
    # blocks
    "tpod": {"args": "256 256 128 50 32 32 32", "quick": "64 64 32 5 16 16 16"},
}
DEFAULT_PROGRAM = {"args": "", "quick": ""}

NETWORK_RE = re.compile(r"^network: (.*)$", re.M)
NOCOMM_BANNER = "tucana-nocomm: active"
COMM_ONLY_RE = re.compile(r"^comm-only: ", re.M)  # common/comm_only.h's COMM_ONLY_LINE


# ----------------------------------------------------------------- helpers

def die(msg):
    print("run_bench.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def warn(msg):
    print("run_bench.py: warning: " + msg, file=sys.stderr, flush=True)


def split_list(text):
    return [x.strip() for x in text.split(",") if x.strip()]


def parse_kv(items, what, conv=str):
    """['NAME=VALUE', ...] (a repeated option such as --args) -> {NAME: conv(VALUE)}."""
    d = {}
    for it in items:
        if "=" not in it:
            die(f"{what} expects NAME=VALUE, got '{it}'")
        k, v = it.split("=", 1)
        try:
            d[k.strip()] = conv(v.strip().strip('"').strip("'"))
        except ValueError:
            die(f"{what} {it}: bad value")
    return d


def parse_time(stdout):
    """Seconds of the timed loop: a line 'time <s>' (preferred), else
    '... time <s> s' inside a line (the examples' 'ranks' line)."""
    for line in stdout.splitlines():
        m = re.match(r"\s*time\s+([-+0-9.eE]+)\b", line)
        if m:
            try:
                return float(m.group(1))
            except ValueError:
                pass
    for line in stdout.splitlines():
        m = re.search(r"\btime\s+([-+0-9.eE]+)\s*s\b", line)
        if m:
            try:
                return float(m.group(1))
            except ValueError:
                pass
    return None


def parse_checksum(stdout):
    for line in stdout.splitlines():
        m = re.match(r"\s*checksum\s+(\S+)", line)
        if m:
            return m.group(1)
    return ""


def parse_ok(stdout):
    """'ok' for a '<name>: OK' line, 'failed' for '<name>: FAILED...', else ''."""
    verdict = ""
    for line in stdout.splitlines():
        if re.match(r"^\S+: OK\s*$", line):
            verdict = "ok"
        elif re.match(r"^\S+: FAIL", line):
            return "failed"
    return verdict


def median(xs):
    return statistics.median(xs) if xs else None


def mad(xs):
    if len(xs) < 2:
        return 0.0
    m = statistics.median(xs)
    return statistics.median([abs(x - m) for x in xs])


def fmt(x, digits=4):
    if x is None:
        return "n/a"
    return f"{x:.{digits}f}"


def seconds_cell(row):
    """A run's time for a progress line, 11 characters."""
    return f"{float(row['seconds']):9.4f} s" if row["seconds"] else "        - "


def progress(i, total, t_start, label, value, row):
    """Prints the progress line of run i of total (the harnesses share it):
    '[i/total] LABEL  VALUE', the run's status and log when it is not ok,
    and the time left at the mean pace so far."""
    eta = (time.monotonic() - t_start) / i * (total - i)
    extra = "" if row["status"] == "ok" else f"  [{row['status']}: see {row['log']}]"
    print(f"[{i:4d}/{total}] {label}  {value}{extra}   (eta {eta:4.0f} s)", flush=True)


def finish(out, report, rows, plot):
    """The end that the harnesses share: plot(out) (None: no plots), then
    OUT/REPORT printed after an empty line, then a warning when some of rows
    (the runs) were not ok.  Returns main's exit status, 0."""
    if plot is not None:
        plot(out)
    with open(os.path.join(out, report)) as f:
        print()
        print(f.read())
    bad = [r for r in rows if r["status"] != "ok"]
    if bad:
        warn(f"{len(bad)} of {len(rows)} runs were not ok (see results.csv and logs/)")
    return 0


def launcher_kind(mpirun):
    """'openmpi' or 'mpich' (anything that takes -genv)."""
    try:
        out = subprocess.run(shlex.split(mpirun) + ["--version"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "openmpi"
    if re.search(r"Open ?MPI|OpenRTE", out):
        return "openmpi"
    return "mpich"


def first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[0] if text else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


# ---------------------------------------------------------------- the runs

class Job:
    """One run: program, variant, np, vf (None for native variants; the tasks
    per rank for hybrid), rep."""

    def __init__(self, program, variant, np_, vf, rep, binary, args, main):
        self.program, self.variant, self.np, self.vf, self.rep = program, variant, np_, vf, rep
        self.binary, self.args, self.main = binary, args, main
        self.cmd = None

    @property
    def ranks(self):
        if self.variant in HYBRID_VARIANTS:
            return self.np  # its V is tasks, not subranks
        return self.np * (self.vf or 1)


# ------------------------------------------------------------------ nocomm

def find_nocomm(opts):
    """The NoComm library: --nocomm-lib, BUILD/tools/nocomm/, BUILD/lib/, or
    built here from tools/nocomm/nocomm.c with the MPI C compiler."""
    cands = [opts.nocomm_lib] if opts.nocomm_lib else [
        os.path.join(opts.build, "tools", "nocomm", "libtucana_nocomm.so"),
        os.path.join(opts.build, "lib", "libtucana_nocomm.so"),
    ]
    for c in cands:
        if c and os.path.isfile(c):
            return os.path.abspath(c)
    if opts.nocomm_lib:
        die(f"--nocomm-lib {opts.nocomm_lib}: no such file")
    src = os.path.join(REPO, "tools", "nocomm", "nocomm.c")
    out = os.path.join(opts.out, "libtucana_nocomm.so")
    cc = opts.mpicc
    print(f"nocomm library not found in {opts.build}; building {out} with {cc}", flush=True)
    r = subprocess.run([cc, "-O2", "-fPIC", "-shared", "-o", out, src],
                       capture_output=True, text=True)
    if r.returncode != 0:
        warn(f"could not build the nocomm library:\n{r.stderr}")
        return None
    return out


# --------------------------------------------------------------- commands

def build_command(job, opts, ctx):
    """The argv of one run, without the namespace wrapper."""
    oversub = job.np > ctx["ncores"]
    if job.variant in NATIVE_VARIANTS:
        cmd = shlex.split(opts.mpirun) + ["-np", str(job.np)]
        if ctx["launcher"] == "openmpi":
            cmd += ["--oversubscribe", "--bind-to", "none"] if oversub else ["--bind-to", "core"]
            if job.variant == "nocomm":
                cmd += ["-x", "LD_PRELOAD=" + ctx["nocomm_lib"]]
        else:
            if not oversub:
                cmd += ["-bind-to", "core"]
            if job.variant == "nocomm":
                cmd += ["-genv", "LD_PRELOAD", ctx["nocomm_lib"]]
        cmd += shlex.split(opts.mpirun_args)
    elif job.variant in AMPI_VARIANTS:
        return ampi_command(job, opts, ctx, oversub) + shlex.split(job.args)
    else:
        what = "--tasks" if job.variant in HYBRID_VARIANTS else "--vf"
        cmd = [ctx["tucana_run"], "-np", str(job.np), what, str(job.vf)]
        extra = []
        # The same binding as the native runs; a process of several workers
        # is left unbound (bound to one core, its workers would share it).
        if not oversub and not re.search(r"--workers[ =](?!1\b)\d", opts.tucana_run_args):
            extra = ["--bind-to", "core"] if ctx["launcher"] == "openmpi" else ["-bind-to", "core"]
        extra += shlex.split(opts.mpirun_args)
        if extra:
            cmd += ["--mpirun-args", " ".join(extra)]
        cmd += shlex.split(opts.tucana_run_args)
    return cmd + [job.binary] + shlex.split(job.args)


def ampi_command(job, opts, ctx, oversub):
    """The ampi variant's argv but the program's arguments: DIR/bin/charmrun
    +pP, the launcher options of the native runs, the binary, +vpP*V,
    --ampi-args.  The charmrun of an MPI-layer build (mpi-linux-x86_64) runs
    `mpirun -np P` with every option it does not know passed on in order,
    so the ranks get the same binding (and --oversubscribe) as Original's,
    and the same Open MPI (the namespace's TCP settings) carries AMPI's
    messages between the P processes.  AMPI maps the virtual ranks to the
    processes in blocks by default (ranks 0..V-1 on process 0), as
    tucana-run does its subranks."""
    cmd = [ctx["ampi"]["charmrun"], f"+p{job.np}", "++quiet"]
    if ctx["launcher"] == "openmpi":
        cmd += ["--oversubscribe", "--bind-to", "none"] if oversub else ["--bind-to", "core"]
    elif not oversub:
        cmd += ["-bind-to", "core"]
    cmd += shlex.split(opts.mpirun_args)
    return cmd + [job.binary, f"+vp{job.np * job.vf}"] + shlex.split(opts.ampi_args)


def wrap_netns(cmd, opts):
    """Per-run namespace mode: prefix the command with netns-run.sh."""
    if opts.network_mode == "shm" or opts.netns != "per-run":
        return cmd
    if opts.network_mode == "unthrottled":
        return ["bash", NETNS_RUN, "--unthrottled", "--"] + cmd
    return ["bash", NETNS_RUN, "--rate", opts.rate, "--"] + cmd


def run_job(job, opts, ctx, logdir):
    cmd = wrap_netns(job.cmd, opts)
    t0 = time.monotonic()
    timed_out = False
    # A session of its own, so that a timeout ends the launcher and every
    # process it started (ranks included), and nothing else.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=os.path.dirname(os.path.abspath(job.binary)) or None,
                         env=ctx["env"], start_new_session=True)
    try:
        so, se = p.communicate(timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                so, se = p.communicate(timeout=grace)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            so, se = "", ""
    rc = 124 if timed_out else p.returncode
    so, se = so or "", se or ""
    wall = time.monotonic() - t0
    seconds = parse_time(so)
    verdict = parse_ok(so)
    nets = NETWORK_RE.findall(se)
    network = nets[-1] if nets else ""
    if timed_out:
        status = "timeout"
    elif seconds is None:
        status = "no-time"
    elif job.variant == "nocomm":
        # wrong results are expected; the preload must have taken effect
        status = "ok" if NOCOMM_BANNER in se else "no-preload"
    elif job.variant == "bound" and rc == 0:
        # nothing computed, no verdict; it must be the comm-only build
        status = "ok" if COMM_ONLY_RE.search(so) else "not-comm-only"
    elif rc != 0 or verdict == "failed":
        status = "failed"
    elif verdict != "ok":
        status = "no-ok-line"
    else:
        status = "ok"
    vf = (f"tasks{job.vf}" if job.variant in HYBRID_VARIANTS else f"vf{job.vf}") if job.vf else "native"
    log = os.path.join(logdir, f"{job.program}.{job.variant}.{vf}.rep{job.rep}.log")
    with open(log, "w") as f:
        f.write("command: " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        f.write(f"exit status: {rc}{' (timed out)' if timed_out else ''}; wall {wall:.3f} s; status {status}\n")
        f.write("---- stdout\n" + so + "\n---- stderr\n" + se)
    return {
        "program": job.program, "variant": job.variant, "np": job.np,
        "vf": job.vf if job.vf else "", "rep": job.rep,
        "seconds": f"{seconds:.6f}" if seconds is not None else "",
        "status": status, "ranks": job.ranks, "checksum": parse_checksum(so),
        "exit": rc, "wall_seconds": f"{wall:.3f}", "network": network,
        "main": int(job.main), "log": os.path.relpath(log, opts.out),
    }


# ----------------------------------------------------------- the job list

def make_jobs(opts, ctx):
    """All runs of one repetition, per program, in the fixed order that the
    rotation starts from; returns {program: [Job, ...]} (rep filled later)."""
    per_program = {}
    for prog in opts.programs_list:
        info = dict(DEFAULT_PROGRAM, **PROGRAMS.get(prog, {}))
        args = opts.args_map.get(prog, info["quick"] if opts.quick else info["args"])
        # Arguments of the over-decomposed runs (tucana/virtualized at VF >= 2)
        # when they differ: same problem, another split of it over the subranks.
        virtual_args = args
        if opts.subrank_layout and not opts.quick and prog not in opts.args_map and info.get("virtual_args"):
            virtual_args = info["virtual_args"]
            ctx["notes"].append(f"{prog}: the over-decomposed variants (tucana, virtualized, ampi, the "
                                f"graph variants) at VF >= 2 run with `{virtual_args}` "
                                f"(the same problem, its subranks laid across the process boundary)")
        np_ = opts.np_map.get(prog, opts.np)
        vf = opts.vf_map.get(prog, opts.vf)
        sweep = [] if (opts.quick or not opts.vf_sweep_list) else list(opts.vf_sweep_list)
        # hybrid: V tasks per rank on P ranks, whatever the subrank layout needs
        tasks, tasks_sweep = vf, list(sweep)
        note = ""
        if info.get("rank_dependent") and any(v in TUCANA_VARIANTS for v in opts.variants_list):
            note += (("; " if note else f"{prog}: ") +
                     "the problem depends on the rank count: tucana/virtualized (P*V subranks) "
                     "solve another instance than original/overlap/nocomm (P ranks)")
        if np_ > ctx["ncores"]:
            note += (("; " if note else f"{prog}: ") +
                     f"{np_} processes on {ctx['ncores']} cores: oversubscribed, unbound")
        if note:
            ctx["notes"].append(note)
            print("note: " + note, flush=True)
        vfs = sorted(set(sweep) | {vf})
        tasks_list = sorted(set(tasks_sweep) | {tasks})
        jobs = []
        for variant in opts.variants_list:
            binary = variant_binary(prog, variant, opts)
            if binary is None:
                continue
            if variant in NATIVE_VARIANTS:
                jobs.append(Job(prog, variant, np_, None, 0, binary, args, True))
            elif variant in HYBRID_VARIANTS:
                for v in tasks_list:
                    jobs.append(Job(prog, variant, np_, v, 0, binary, args, v == tasks))
            else:
                for v in vfs:
                    jobs.append(Job(prog, variant, np_, v, 0, binary, virtual_args if v >= 2 else args, v == vf))
        ctx["layout"][prog] = {"np": np_, "vf": vf, "sweep": sorted(set(sweep) | {vf}) if sweep else [],
                               "tasks": tasks, "args": args}
        per_program[prog] = jobs
    return per_program


def variant_binary(prog, variant, opts):
    src = "original" if variant == "nocomm" else variant
    path = (opts.bin_map.get(f"{prog}:{variant}") or opts.bin_map.get(variant)
            or opts.bin_map.get(f"{prog}:{src}") or opts.bin_map.get(src))
    if not path and variant in AMPI_VARIANTS:
        return build_ampi(prog, opts)
    source = GRAPH_SOURCES.get((prog, variant), f"{prog}_{variant}.c")
    if not path and variant in HYBRID_VARIANTS + GRAPH_VARIANTS and not os.path.isfile(
            os.path.join(REPO, "bench", "programs", prog, source)):
        # not an error: only some programs are written with tasks, or in
        # the ablation's forms
        msg = f"{prog}: no {variant} variant (no bench/programs/{prog}/{source}); {variant} skipped"
        print("note: " + msg, flush=True)
        opts.ctx["notes"].append(msg)
        return None
    if path:
        path = path.replace("{build}", opts.build).replace("{program}", prog)
    else:
        path = os.path.join(opts.build, "bench", "programs", prog, f"{prog}.{src}")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        msg = f"{prog}/{variant}: {path} is missing; variant skipped"
        warn(msg)
        opts.ctx["notes"].append(msg)
        return None
    return os.path.abspath(path)


def ampi_tools(opts):
    """{'dir', 'ampicc', 'charmrun'} of --ampi DIR (a Charm++ build with
    AMPI: DIR/bin/ampicc and DIR/bin/charmrun), or None with a note."""
    if not opts.ampi:
        return None
    d = os.path.abspath(opts.ampi)
    tools = {"dir": d, "ampicc": os.path.join(d, "bin", "ampicc"),
             "charmrun": os.path.join(d, "bin", "charmrun")}
    missing = [t for t in ("ampicc", "charmrun") if not os.access(tools[t], os.X_OK)]
    if missing:
        die(f"--ampi {opts.ampi}: no {' or '.join('bin/' + m for m in missing)} there "
            "(expected a Charm++ AMPI build: ./build AMPI mpi-linux-x86_64 ...)")
    return tools


def ampi_build_command(prog, opts, out):
    """ampicc's argv for NAME.ampi: the Original source, -O2, the program's libs."""
    src = os.path.join(REPO, "bench", "programs", prog, f"{prog}.c")
    libs = shlex.split(PROGRAMS.get(prog, {}).get("libs", ""))
    return [opts.ctx["ampi"]["ampicc"], "-O2", "-o", out, src] + libs


def build_ampi(prog, opts):
    """NAME.ampi in OUT/ampi/, built from bench/programs/NAME/NAME.c with
    DIR/bin/ampicc (--ampi DIR); None (a note) without --ampi, a warning when
    the build fails.  With --dry-run the command is printed, not run."""
    ctx = opts.ctx
    if ctx.get("ampi") is None:
        msg = f"{prog}: no ampi variant without --ampi DIR (a Charm++ AMPI build); ampi skipped"
        print("note: " + msg, flush=True)
        ctx["notes"].append(msg)
        return None
    src = os.path.join(REPO, "bench", "programs", prog, f"{prog}.c")
    if not os.path.isfile(src):
        msg = f"{prog}: no {src}; ampi skipped"
        warn(msg)
        ctx["notes"].append(msg)
        return None
    out = os.path.join(opts.out, "ampi", f"{prog}.ampi")
    cmd = ampi_build_command(prog, opts, out)
    if opts.dry_run:
        print("# build: " + " ".join(shlex.quote(c) for c in cmd))
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    print(f"building {out} with {cmd[0]}", flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(out))
    if r.returncode != 0 or not os.access(out, os.X_OK):
        msg = f"{prog}/ampi: {' '.join(cmd)} failed; ampi skipped"
        warn(msg + ":\n" + r.stdout + r.stderr)
        ctx["notes"].append(msg)
        return None
    return out


# --------------------------------------------------------------- analysis

def load_results(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def analyse(rows):
    """{(program, variant, vf): stats} over the successful runs."""
    groups = {}
    for r in rows:
        vf = int(r["vf"]) if r["vf"] else None
        g = groups.setdefault((r["program"], r["variant"], vf),
                              {"times": [], "runs": 0, "np": int(r["np"]), "ranks": int(r["ranks"]),
                               "statuses": [], "checksums": set(), "main": int(r.get("main", 1))})
        g["runs"] += 1
        g["statuses"].append(r["status"])
        if r["status"] == "ok" and r["seconds"]:
            g["times"].append(float(r["seconds"]))
            if r["variant"] not in NO_RESULT_VARIANTS and r["checksum"]:
                g["checksums"].add(r["checksum"])
    for g in groups.values():
        t = g["times"]
        g["median"] = median(t)
        g["min"] = min(t) if t else None
        g["max"] = max(t) if t else None
        g["mad"] = mad(t)
    return groups


def hidden(t_orig, t_var, t_nocomm, g_orig, g_nocomm):
    """(hidden %, note)."""
    if t_orig is None or t_nocomm is None or t_var is None:
        return None, "missing original, nocomm or variant times"
    gap = t_orig - t_nocomm
    if gap <= 0:
        return None, "NoComm is not faster than Original: nothing to hide"
    share = 100.0 * gap / t_orig
    h = 100.0 * (t_orig - t_var) / gap
    noise = 2.0 * (g_orig["mad"] + g_nocomm["mad"])
    if min(len(g_orig["times"]), len(g_nocomm["times"])) < 3:
        if share < 5.0:
            return h, f"unreliable: communication is only {share:.1f}% of T_original"
        return h, "fewer than 3 runs of original/nocomm: no noise estimate"
    if share < 5.0:
        return h, f"unreliable: communication is only {share:.1f}% of T_original"
    if gap < noise:
        return h, f"unreliable: T_orig - T_nocomm = {gap:.4f} s is within the run-to-run noise ({noise:.4f} s)"
    return h, ""


def bound(t_orig, t_nocomm, t_bound):
    """The bound on hidden %: 100 * (T_orig - max(W, C)) / (T_orig - W), W =
    T_nocomm (the computation alone), C = T_bound (the exchange alone): no
    schedule ends before both.  None when a time is missing or W >= T_orig."""
    if t_orig is None or t_nocomm is None or t_bound is None or t_orig <= t_nocomm:
        return None
    return 100.0 * (t_orig - max(t_nocomm, t_bound)) / (t_orig - t_nocomm)


def beyond_bound(h, bound_pct, gap, mads):
    """How far hidden % h passes the bound, in points, when by more than the
    noise, else None.  gap: T_orig - T_nocomm (s); mads: the MADs of the
    variant's runs and of the runs that set the bound (NoComm's or the
    bound's, whichever is longer).  Noise, in points: 100 * 2 * sum(mads) /
    gap, the same rule as hidden()'s."""
    if h is None or bound_pct is None:
        return None
    noise = 100.0 * 2.0 * sum(mads) / gap
    return h - bound_pct if h - bound_pct > noise else None


def slower_than_virtualized(g_translated, g_virtualized):
    """(seconds by which the translated median exceeds the virtualized one,
    noise, verdict): verdict 'slower' when that excess is above the noise,
    2 * (MAD of the translated runs + MAD of the virtualized runs) (the
    spread of the repetitions, as in hidden()); 'ok' otherwise; with fewer
    than 3 runs of either there is no spread to go by: 'slower (no noise
    estimate)' for any excess.  None when either has no time."""
    if not g_translated or not g_virtualized or g_translated["median"] is None \
            or g_virtualized["median"] is None:
        return None
    excess = g_translated["median"] - g_virtualized["median"]
    noise = 2.0 * (g_translated["mad"] + g_virtualized["mad"])
    if min(len(g_translated["times"]), len(g_virtualized["times"])) < 3:
        return excess, noise, "slower (no noise estimate)" if excess > 0 else "ok"
    return excess, noise, "slower" if excess > noise else "ok"


def checks(opts, groups):
    """The report's check, per program and VF: every translated variant
    (TRANSLATED_VARIANTS) against virtualized at the same VF.  Rows for
    checks.csv and the summary's "Checks" section."""
    out = []
    for prog in opts.programs_list:
        for variant in TRANSLATED_VARIANTS:
            if variant not in opts.variants_list or "virtualized" not in opts.variants_list:
                continue
            for key in sorted(k for k in groups if k[0] == prog and k[1] == variant):
                vf = key[2]
                res = slower_than_virtualized(groups[key], groups.get((prog, "virtualized", vf)))
                if res is None:
                    continue
                excess, noise, verdict = res
                out.append({"program": prog, "vf": vf, "variant": variant,
                            "median_s": fmt(groups[key]["median"], 6),
                            "virtualized_median_s": fmt(groups[(prog, "virtualized", vf)]["median"], 6),
                            "excess_s": f"{excess:+.6f}", "noise_s": f"{noise:.6f}",
                            "verdict": verdict})
    return out


def summarize(opts, ctx, rows):
    groups = analyse(rows)
    programs = [p for p in opts.programs_list if any(k[0] == p for k in groups)]
    summary, sweep = [], []
    for prog in programs:
        lay = ctx["layout"].get(prog, {})
        main_vf = lay.get("vf", opts.vf)
        g_orig = groups.get((prog, "original", None))
        g_noc = groups.get((prog, "nocomm", None))
        stat = opts.stat  # "median" or "min": the time that speedup and hidden % use
        t_orig = g_orig[stat] if g_orig else None
        t_noc = g_noc[stat] if g_noc else None
        g_bound = groups.get((prog, "bound", None))
        t_bound = g_bound[stat] if g_bound else None
        bound_pct = bound(t_orig, t_noc, t_bound)
        # the runs that set the bound: the longer of NoComm and the bound
        g_limit = (g_bound if t_bound > t_noc else g_noc) if bound_pct is not None else None
        ref_sums = g_orig["checksums"] if g_orig else set()
        rank_dependent = PROGRAMS.get(prog, {}).get("rank_dependent", False)
        for variant in opts.variants_list:
            vfs = [None] if variant in NATIVE_VARIANTS else sorted(
                k[2] for k in groups if k[0] == prog and k[1] == variant)
            main_v = lay.get("tasks", main_vf) if variant in HYBRID_VARIANTS else main_vf
            for vf in vfs:
                g = groups.get((prog, variant, vf))
                if g is None:
                    continue
                t = g[stat]
                speedup = t_orig / t if (t and t_orig) else None
                h, note = (None, "")
                if variant in ("overlap", "bound") + SWEEP_VARIANTS:
                    if g_orig and g_noc:
                        h, note = hidden(t_orig, t, t_noc, g_orig, g_noc)
                    else:
                        note = "needs original and nocomm runs"
                bad = [s for s in g["statuses"] if s != "ok"]
                if bad:
                    note = "; ".join(filter(None, [note, f"{len(bad)} run(s) not ok: {','.join(sorted(set(bad)))}"]))
                if variant != "nocomm" and g["checksums"]:
                    comparable = not rank_dependent or (g_orig and g["ranks"] == g_orig["ranks"])
                    if len(g["checksums"]) > 1:
                        note = "; ".join(filter(None, [note, "checksum differs between repetitions"]))
                    elif ref_sums and comparable and g["checksums"] != ref_sums:
                        note = "; ".join(filter(None, [note, "checksum differs from Original"]))
                if variant == "nocomm" and t_orig and t is not None:
                    note = "; ".join(filter(None, [
                        f"communication = {100.0 * (t_orig - t) / t_orig:.1f}% of T_original",
                        note]))
                if variant == "bound" and t_noc is not None and t is not None:
                    note = "; ".join(filter(None, [
                        "the exchange alone" + (" is shorter than the computation (NoComm): "
                                                "the bound is 100%" if t <= t_noc else
                                                ", longer than the computation (NoComm): it sets the bound"),
                        note]))
                # (the bound row's hidden % is the exchange-only limit, no share)
                share = (100.0 * h / bound_pct
                         if (h is not None and bound_pct and variant != "bound") else None)
                over = (beyond_bound(h, bound_pct, t_orig - t_noc, [g["mad"], g_limit["mad"]])
                        if variant != "bound" and g_limit else None)
                if over is not None:
                    note = "; ".join(filter(None, [
                        f"**hidden % exceeds the bound by {over:.1f} points, beyond the noise: "
                        "the bound is not a bound** (it is faster than the computation alone "
                        "or the exchange alone; see docs/benchmarks.md)", note]))
                row = {"program": prog, "variant": variant, "np": g["np"],
                       "vf": vf if vf else "", "ranks": g["ranks"],
                       "runs_ok": len(g["times"]), "runs": g["runs"],
                       "median_s": fmt(g["median"], 6) if g["median"] is not None else "",
                       "min_s": fmt(g["min"], 6) if g["min"] is not None else "",
                       "max_s": fmt(g["max"], 6) if g["max"] is not None else "",
                       "speedup": f"{speedup:.3f}" if speedup else "",
                       "hidden_pct": f"{h:.1f}" if h is not None else "",
                       "bound_pct": f"{bound_pct:.1f}" if bound_pct is not None else "",
                       "share_of_bound_pct": f"{share:.1f}" if share is not None else "",
                       "above_bound": "yes" if over is not None else "",
                       "stat": stat, "note": note}
                if variant in SWEEP_VARIANTS:
                    sweep.append(row)
                if vf is None or vf == main_v:
                    summary.append(row)
    return summary, sweep, groups


def write_csv(path, rows, fields):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def md_table(rows, cols, heads):
    out = ["| " + " | ".join(heads) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(r.get(c, "")) if r.get(c, "") != "" else "n/a"
                                     if c in ("hidden_pct", "speedup", "median_s", "bound_pct",
                                              "share_of_bound_pct") else str(r.get(c, ""))
                                     for c in cols) + " |")
    return "\n".join(out)


def check_lines(chk):
    """The summary's "Checks" section (markdown lines) for checks() rows."""
    md = ["## Checks", "",
          "Translated (tucana and the graph variants) never slower than virtualized at the "
          "same VF: a (program, VF) is flagged when the translated median exceeds the "
          "virtualized median by more than the noise, 2 x (the median absolute deviation of "
          "the translated runs + that of the virtualized runs); with fewer than 3 runs of "
          "either there is no noise estimate and any excess is flagged. A benchmark check, "
          "not a timed test.", ""]
    if not chk:
        return md + ["No translated and virtualized runs at a common VF.", ""]
    bad = [c for c in chk if c["verdict"] != "ok"]
    md.append(f"**{len(bad)} of {len(chk)} flagged.**" if bad else
              f"All {len(chk)} pass.")
    md += ["", md_table(chk, ["program", "vf", "variant", "median_s", "virtualized_median_s",
                              "excess_s", "noise_s", "verdict"],
                        ["program", "VF", "translated", "median s", "virtualized median s",
                         "excess s", "noise s", "verdict"]), ""]
    return md


def write_reports(opts, ctx, rows):
    summary, sweep, groups = summarize(opts, ctx, rows)
    chk = checks(opts, groups)
    for c in chk:
        if c["verdict"] != "ok":
            for r in summary + sweep:
                if (r["program"], r["variant"], r["vf"]) == (c["program"], c["variant"], c["vf"]) \
                        and "slower than virtualized" not in r["note"]:
                    r["note"] = "; ".join(filter(None, [
                        f"**slower than virtualized at VF {c['vf']}** ({c['excess_s']} s, "
                        f"noise {c['noise_s']} s)", r["note"]]))
    sfields = ["program", "variant", "np", "vf", "ranks", "runs_ok", "runs", "median_s",
               "min_s", "max_s", "speedup", "hidden_pct", "bound_pct", "share_of_bound_pct",
               "above_bound", "stat", "note"]
    write_csv(os.path.join(opts.out, "summary.csv"), summary, sfields)
    write_csv(os.path.join(opts.out, "vf_sweep.csv"), sweep, sfields)
    write_csv(os.path.join(opts.out, "checks.csv"), chk,
              ["program", "vf", "variant", "median_s", "virtualized_median_s", "excess_s",
               "noise_s", "verdict"])

    networks = sorted(set(r["network"] for r in rows if r.get("network")))
    net_line = "; ".join(networks) if networks else ctx.get("network", "unknown")
    head = [f"Network: {net_line}",
            f"Machine: {ctx['host']}, {ctx['ncores']} cores, {ctx['mpi_version']}",
            f"Date: {ctx['date']}; commit {ctx['commit']}",
            f"Command: `{ctx['cmdline']}`",
            f"Repetitions: {opts.reps} (variants interleaved, order rotated each repetition); "
            f"namespace: {opts.netns if opts.network_mode not in ('shm',) else 'none (shared memory)'}"]
    if len(networks) > 1:
        head.append("**Warning: the runs did not all see the same network (see results.csv).**")
    if any(n.startswith("unthrottled") for n in networks):
        head.append("**Warning: the interconnect was not throttled: communication is nearly free "
                    "and hidden % means little.**")
    cols = ["program", "variant", "np", "vf", "ranks", "runs_ok", "median_s", "min_s", "max_s",
            "speedup", "hidden_pct", "share_of_bound_pct", "note"]
    heads = ["program", "variant", "P", "VF/tasks", "ranks", "ok runs", "median s", "min s", "max s",
             "speedup", "hidden %", "% of bound", "note"]
    md = ["# Benchmark summary", ""] + ["- " + h for h in head] + [""]
    md += [f"hidden % = 100 * (T_original - T_variant) / (T_original - T_nocomm), on the {opts.stat} "
           "times of the repetitions; speedup = T_original / T_variant. n/a for original and nocomm. "
           "VF/tasks: subranks per worker (tucana, virtualized: P*VF ranks; ampi: P*VF virtual "
           "ranks) or tasks per rank (hybrid: `tucana-run --tasks`, P ranks).",
           "",
           "bound = 100 * (T_original - max(T_nocomm, T_bound)) / (T_original - T_nocomm): the "
           "best hidden % that any schedule can reach, since none ends before the computation "
           "alone (NoComm, W) or the exchange alone (bound: the Original built with "
           "-DBENCH_COMM_ONLY, C). % of bound = 100 * hidden % / bound. A hidden % above the "
           "bound by more than the noise (2 x the MADs of the variant's runs and of the runs "
           "that set the bound, as a share of T_original - T_nocomm) is marked: then the bound "
           "is not a bound.", ""]
    bounds = {r["program"]: r["bound_pct"] for r in summary if r["bound_pct"]}
    for prog in opts.programs_list:
        prow = [r for r in summary if r["program"] == prog]
        if not prow:
            continue
        lay = ctx["layout"].get(prog, {})
        md += [f"## {prog}", "", f"Arguments: `{lay.get('args', '')}`", "",
               f"Bound on hidden %: {bounds[prog]}%" if prog in bounds else
               "Bound on hidden %: n/a (needs original, nocomm and bound runs)", "",
               md_table(prow, cols, heads), ""]
    md += check_lines(chk)
    over = [r for r in summary + sweep if r["above_bound"]]
    if over:
        md += ["**Above the bound** (the bound is not a bound here): " + ", ".join(
            f"{r['program']} {r['variant']}{v_label(r['variant'], r['vf'])} "
            f"({r['hidden_pct']}% against {r['bound_pct']}%)" for r in over), ""]
    if ctx["notes"]:
        md += ["## Notes", ""] + ["- " + n for n in ctx["notes"]] + [""]
    md += ["Files: results.csv (every run), summary.csv (this table), vf_sweep.csv/.md, checks.csv, "
           "time_per_variant.png, hidden_per_vf.png, logs/ (each run's command and output).", ""]
    with open(os.path.join(opts.out, "summary.md"), "w") as f:
        f.write("\n".join(md))

    vmd = ["# VF sweep", "", f"- Network: {net_line}",
           f"- Original and NoComm: the P-rank runs of summary.md; speedup and hidden % use the "
           f"{opts.stat} times.",
           "- VF/tasks: VF subranks per worker for tucana and virtualized (P*VF ranks); tasks per "
           "rank (`tucana-run --tasks`) for hybrid (P ranks).", ""]
    vcols = ["program", "variant", "np", "vf", "ranks", "runs_ok", "median_s", "speedup",
             "hidden_pct", "bound_pct", "share_of_bound_pct", "note"]
    vheads = ["program", "variant", "P", "VF/tasks", "ranks", "ok runs", "median s", "speedup",
              "hidden %", "bound %", "% of bound", "note"]
    if sweep:
        for prog in opts.programs_list:
            prow = [r for r in sweep if r["program"] == prog]
            if prow:
                vmd += [f"## {prog}", "", md_table(prow, vcols, vheads), ""]
    else:
        vmd += ["No tucana/virtualized/hybrid/ampi runs.", ""]
    with open(os.path.join(opts.out, "vf_sweep.md"), "w") as f:
        f.write("\n".join(vmd))
    return summary, sweep


# ------------------------------------------------------------------ plots

def make_plots(out, interpreter_ok=True):
    """PNG plots with matplotlib (see plotting.plot: here, else in
    /usr/bin/python3, installing python3-matplotlib with apt-get when root);
    else hand-written SVG files."""
    return plotting.plot(os.path.abspath(__file__), out, plot_matplotlib, warn,
                         "matplotlib is not available: writing SVG plots instead of PNG "
                         "(install python3-matplotlib and run --replot OUT for PNG)",
                         fallback=plot_svg, here=interpreter_ok)


def read_plot_data(out):
    summary = load_results(os.path.join(out, "summary.csv"))
    sweep_path = os.path.join(out, "vf_sweep.csv")
    sweep = load_results(sweep_path) if os.path.exists(sweep_path) else []
    programs = []
    for r in summary:
        if r["program"] not in programs:
            programs.append(r["program"])
    return summary, sweep, programs


VARIANT_COLORS = {"original": "#7f7f7f", "overlap": "#1f77b4", "nocomm": "#2ca02c",
                  "tucana": "#d62728", "virtualized": "#ff7f0e", "hybrid": "#9467bd",
                  "toucan": "#e377c2", "explicit": "#17becf", "directional": "#bcbd22",
                  "bound": "#000000", "ampi": "#8c564b"}


def v_label(variant, vf, sep=" "):
    """'VF 4' or, for hybrid, 'tasks 4' (empty for native variants)."""
    if not vf:
        return ""
    return sep + ("tasks " if variant in HYBRID_VARIANTS else "VF ") + str(vf)


def plot_matplotlib(out):
    plt = plotting.pyplot()

    summary, sweep, programs = read_plot_data(out)
    if not programs:
        warn("no results to plot")
        return False
    # time_per_variant.png: one panel per program, a bar per variant
    n = len(programs)
    fig, axes = plt.subplots(1, n, figsize=(max(5.5, 3.4 * n), 4.6), squeeze=False)
    for ax, prog in zip(axes[0], programs):
        rows = [r for r in summary if r["program"] == prog and r["median_s"]]
        names = [r["variant"] + v_label(r["variant"], r["vf"], "\n") for r in rows]
        stat = (rows[0].get("stat") or "median") if rows else "median"
        col = "min_s" if stat == "min" else "median_s"
        med = [float(r[col] or r["median_s"]) for r in rows]
        lo = [m - float(r["min_s"] or m) for m, r in zip(med, rows)]
        hi = [float(r["max_s"] or m) - m for m, r in zip(med, rows)]
        colors = [VARIANT_COLORS.get(r["variant"], "#8c564b") for r in rows]
        bars = ax.bar(range(len(rows)), med, yerr=[lo, hi], capsize=3, color=colors)
        for b, r, up in zip(bars, rows, hi):
            label = f"{float(r['speedup']):.2f}x" if r["speedup"] else ""
            if r["hidden_pct"]:
                label += f"\n{float(r['hidden_pct']):.0f}% hidden"
            if label:
                ax.annotate(label, (b.get_x() + b.get_width() / 2, b.get_height() + up),
                            xytext=(0, 3), textcoords="offset points", ha="center",
                            va="bottom", fontsize=7)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(names, fontsize=7, rotation=30, ha="right")
        np_ = rows[0]["np"] if rows else "?"
        ax.set_title(f"{prog} (P={np_})", fontsize=10)
        ax.set_ylabel(f"time of the timed loop (s): {stat}, bars min-max")
        ax.set_ylim(0, max([m + u for m, u in zip(med, hi)] + [0]) * 1.25 or 1)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("Time per variant\n(labels: speedup over Original, hidden %)", fontsize=10)
    fig.tight_layout()
    plotting.save(fig, os.path.join(out, "time_per_variant.png"))

    # hidden_per_vf.png: hidden % against VF (tasks per rank for hybrid), a
    # line per swept variant
    fig, axes = plt.subplots(1, n, figsize=(max(5.5, 3.4 * n), 4.0), squeeze=False)
    for ax, prog in zip(axes[0], programs):
        any_line = False
        for variant in SWEEP_VARIANTS:
            pts = [(int(r["vf"]), float(r["hidden_pct"])) for r in sweep
                   if r["program"] == prog and r["variant"] == variant and r["hidden_pct"] and r["vf"]]
            pts.sort()
            if pts:
                any_line = True
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                        color=VARIANT_COLORS[variant],
                        label=variant + (" (x = tasks per rank)" if variant in HYBRID_VARIANTS else ""))
        orow = [r for r in summary if r["program"] == prog and r["variant"] == "overlap"
                and r["hidden_pct"]]
        if orow:
            ax.axhline(float(orow[0]["hidden_pct"]), color=VARIANT_COLORS["overlap"],
                       linestyle="--", label="overlap (hand-written)")
        brow = [r for r in summary if r["program"] == prog and r.get("bound_pct")]
        if brow:
            ax.axhline(float(brow[0]["bound_pct"]), color=VARIANT_COLORS["bound"],
                       linestyle="-.", label="bound: max(computation, exchange alone)")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.axhline(100, color="black", linewidth=0.8, linestyle=":")
        ax.set_xscale("log", base=2)
        vfs = sorted({int(r["vf"]) for r in sweep if r["program"] == prog and r["vf"]})
        if vfs:
            ax.set_xticks(vfs)
            ax.set_xticklabels([str(v) for v in vfs])
        ax.set_xlabel("VF, or tasks per rank (hybrid)")
        ax.set_ylabel("hidden %")
        ax.set_title(prog, fontsize=10)
        if not any_line:
            ax.text(0.5, 0.5, "no hidden % values", transform=ax.transAxes, ha="center")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    plotting.save(fig, os.path.join(out, "hidden_per_vf.png"))
    print(f"plots: {out}/time_per_variant.png, {out}/hidden_per_vf.png", flush=True)
    return True


def _esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plot_svg(out):
    """The same two plots as plain SVG (no dependencies)."""
    summary, sweep, programs = read_plot_data(out)
    if not programs:
        return False
    pw, ph, m = 300, 260, 50
    # time per variant
    parts = []
    for i, prog in enumerate(programs):
        x0 = i * pw
        rows = [r for r in summary if r["program"] == prog and r["median_s"]]
        top = max([float(r["max_s"] or r["median_s"]) for r in rows] + [1e-9]) * 1.2
        parts.append(f'<text x="{x0 + pw / 2}" y="18" text-anchor="middle" font-size="13">{_esc(prog)}</text>')
        parts.append(f'<line x1="{x0 + m}" y1="{ph - m}" x2="{x0 + pw - 10}" y2="{ph - m}" stroke="black"/>')
        parts.append(f'<line x1="{x0 + m}" y1="30" x2="{x0 + m}" y2="{ph - m}" stroke="black"/>')
        for k in range(5):
            v = top * k / 4
            y = ph - m - (ph - m - 30) * k / 4
            parts.append(f'<text x="{x0 + m - 4}" y="{y + 4}" text-anchor="end" font-size="9">{v:.3g}</text>')
        bw = (pw - m - 20) / max(1, len(rows))
        for j, r in enumerate(rows):
            v = float(r["median_s"])
            h = (ph - m - 30) * v / top
            x = x0 + m + 5 + j * bw
            parts.append(f'<rect x="{x:.1f}" y="{ph - m - h:.1f}" width="{bw * 0.8:.1f}" height="{h:.1f}" '
                         f'fill="{VARIANT_COLORS.get(r["variant"], "#8c564b")}"/>')
            lab = f"{float(r['speedup']):.2f}x" if r["speedup"] else ""
            if r["hidden_pct"]:
                lab += f" {float(r['hidden_pct']):.0f}%"
            parts.append(f'<text x="{x + bw * 0.4:.1f}" y="{ph - m - h - 3:.1f}" text-anchor="middle" '
                         f'font-size="8">{_esc(lab)}</text>')
            name = r["variant"] + v_label(r["variant"], r["vf"])
            parts.append(f'<text x="{x + bw * 0.4:.1f}" y="{ph - m + 12}" text-anchor="end" font-size="9" '
                         f'transform="rotate(-35 {x + bw * 0.4:.1f} {ph - m + 12})">{_esc(name)}</text>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw * len(programs)}" height="{ph}" '
           f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>'
           + "".join(parts) + "</svg>\n")
    with open(os.path.join(out, "time_per_variant.svg"), "w") as f:
        f.write(svg)
    # hidden % per VF
    parts = []
    for i, prog in enumerate(programs):
        x0 = i * pw
        pts_all = [r for r in sweep if r["program"] == prog and r["hidden_pct"] and r["vf"]]
        vfs = sorted({int(r["vf"]) for r in pts_all}) or [1]
        hs = [float(r["hidden_pct"]) for r in pts_all] + [0.0, 100.0]
        lo, hi = min(hs), max(hs)
        parts.append(f'<text x="{x0 + pw / 2}" y="18" text-anchor="middle" font-size="13">{_esc(prog)}</text>')

        def X(v):
            if len(vfs) == 1:
                return x0 + (pw + m) / 2
            return x0 + m + (pw - m - 20) * (math.log2(v) - math.log2(vfs[0])) / (math.log2(vfs[-1]) - math.log2(vfs[0]))

        def Y(h):
            return ph - m - (ph - m - 30) * (h - lo) / ((hi - lo) or 1)

        for h in (0, 100):
            parts.append(f'<line x1="{x0 + m}" y1="{Y(h):.1f}" x2="{x0 + pw - 10}" y2="{Y(h):.1f}" '
                         f'stroke="#999" stroke-dasharray="3,3"/>')
            parts.append(f'<text x="{x0 + m - 4}" y="{Y(h) + 4:.1f}" text-anchor="end" font-size="9">{h}%</text>')
        for v in vfs:
            parts.append(f'<text x="{X(v):.1f}" y="{ph - m + 14}" text-anchor="middle" font-size="9">VF {v}</text>')
        parts.append(f'<text x="{x0 + pw / 2}" y="{ph - 8}" text-anchor="middle" font-size="9">'
                     f'(hybrid: tasks per rank)</text>')
        for k, variant in enumerate(SWEEP_VARIANTS):
            pts = sorted((int(r["vf"]), float(r["hidden_pct"])) for r in pts_all if r["variant"] == variant)
            if pts:
                col = VARIANT_COLORS[variant]
                parts.append(f'<polyline fill="none" stroke="{col}" stroke-width="2" points="'
                             + " ".join(f"{X(v):.1f},{Y(h):.1f}" for v, h in pts) + '"/>')
                for v, h in pts:
                    parts.append(f'<circle cx="{X(v):.1f}" cy="{Y(h):.1f}" r="3" fill="{col}"/>')
                parts.append(f'<text x="{x0 + m + 5}" y="{40 + 12 * k}" font-size="10" fill="{col}">{variant}</text>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw * len(programs)}" height="{ph}" '
           f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>'
           + "".join(parts) + "</svg>\n")
    with open(os.path.join(out, "hidden_per_vf.svg"), "w") as f:
        f.write(svg)
    print(f"plots: {out}/time_per_variant.svg, {out}/hidden_per_vf.svg", flush=True)
    return True


# ------------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Tucana benchmark harness: interleaved, repeated runs over a throttled loopback.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="build directory (default ./build)")
    ap.add_argument("--programs", default=",".join(ALL_PROGRAMS), help="comma list (default: all five)")
    ap.add_argument("--variants", default=",".join(ALL_VARIANTS),
                    help="comma list (default: all six; hybrid only runs for the programs that have one)")
    ap.add_argument("--np", type=int, default=2, help="processes P (default 2)")
    ap.add_argument("--vf", type=int, default=4,
                    help="subranks per worker V for tucana/virtualized, tasks per rank for hybrid (default 4)")
    ap.add_argument("--reps", type=int, default=None, help="repetitions (default 5; 1 with --quick)")
    ap.add_argument("--rate", default=os.environ.get("TUCANA_NET_RATE", "1gbit"),
                    help="tbf rate of the loopback, e.g. 1gbit, 400mbit; 'unthrottled' (TCP over lo, "
                         "no tbf) or 'shm' (no namespace, MPI's default transports). Default 1gbit")
    ap.add_argument("--netns", choices=["per-run", "once"], default="per-run",
                    help="enter a fresh namespace for each run (default) or run the whole "
                         "benchmark inside one")
    ap.add_argument("--out", default=None, help="output directory (default bench/results/<date-time>)")
    ap.add_argument("--args", action="append", default=[], metavar='PROGRAM="ARGS"',
                    help="program arguments (problem size), overriding the table; repeatable")
    ap.add_argument("--np-for", action="append", default=[], metavar="PROGRAM=P",
                    help="per-program process count; repeatable")
    ap.add_argument("--vf-for", action="append", default=[], metavar="PROGRAM=V",
                    help="per-program VF (and hybrid tasks per rank); repeatable")
    ap.add_argument("--bin", action="append", default=[], metavar="[PROGRAM:]VARIANT=PATH",
                    help="binary of a variant ({build} and {program} are expanded); repeatable. "
                         "nocomm uses original's binary unless given")
    ap.add_argument("--vf-sweep", default="1,2,4,8",
                    help="VFs for the tucana/virtualized sweep, and tasks per rank for hybrid's "
                         "(default 1,2,4,8; 'none' to skip)")
    ap.add_argument("--no-sweep", action="store_true", help="same as --vf-sweep none")
    ap.add_argument("--quick", action="store_true", help="1 repetition, small sizes, no sweep")
    ap.add_argument("--subrank-layout", action="store_true",
                    help="run tucana/virtualized/ampi (and the graph variants) at VF >= 2 with the "
                         "program's 'virtual_args' (the same problem, split so that the subranks of a "
                         "process share the boundary with the other process) where the table has them")
    ap.add_argument("--stat", choices=["median", "min"], default="median",
                    help="time per variant for speedup and hidden %%: the median of the repetitions "
                         "(default) or the minimum (noise only adds time: use on a busy machine)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    ap.add_argument("--mpirun", default=os.environ.get("TUCANA_NATIVE_MPIRUN", "mpirun"),
                    help="launcher of the native variants (default mpirun)")
    ap.add_argument("--mpirun-args", default="", help="extra launcher options for every run")
    ap.add_argument("--tucana-run-args", default="", help="extra tucana-run options")
    ap.add_argument("--mpicc", default="mpicc", help="MPI C compiler to build the nocomm library if needed")
    ap.add_argument("--nocomm-lib", default=None, help="path of libtucana_nocomm.so")
    ap.add_argument("--ampi", metavar="DIR", default=None,
                    help="a Charm++ AMPI build (DIR/bin/ampicc, DIR/bin/charmrun, e.g. "
                         "charm/mpi-linux-x86_64): the ampi variant is the Original built with it")
    ap.add_argument("--ampi-args", default="",
                    help="extra options of the AMPI program (after +vpN), e.g. '+tcharm_stacksize 1M'")
    ap.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    ap.add_argument("--no-plots", action="store_true", help="skip the plots")
    ap.add_argument("--replot", metavar="OUT", help="only redraw the plots of an existing OUT directory")
    ap.add_argument("--inside-netns", action="store_true", help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if opts.replot:
        return opts
    opts.build = os.path.abspath(opts.build)
    opts.programs_list = split_list(opts.programs)
    opts.variants_list = split_list(opts.variants)
    for v in opts.variants_list:
        if v not in KNOWN_VARIANTS:
            die(f"unknown variant '{v}' (known: {', '.join(KNOWN_VARIANTS)})")
    if opts.reps is None:
        opts.reps = 1 if opts.quick else 5
    if opts.np < 1 or opts.vf < 1 or opts.reps < 1:
        die("--np, --vf and --reps must be >= 1")

    opts.args_map = parse_kv(opts.args, "--args")
    opts.np_map = parse_kv(opts.np_for, "--np-for", int)
    opts.vf_map = parse_kv(opts.vf_for, "--vf-for", int)
    opts.bin_map = parse_kv(opts.bin, "--bin")
    if opts.no_sweep or opts.vf_sweep.strip().lower() in ("", "none", "off", "0"):
        opts.vf_sweep_list = []
    else:
        try:
            opts.vf_sweep_list = sorted({int(x) for x in split_list(opts.vf_sweep)})
        except ValueError:
            die("--vf-sweep expects a comma list of integers")
    r = opts.rate.strip().lower()
    opts.network_mode = r if r in ("unthrottled", "shm") else "tbf"
    if opts.out is None:
        opts.out = os.path.join(REPO, "bench", "results",
                                datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    opts.out = os.path.abspath(opts.out)
    return opts


def context(opts):
    ncores = os.cpu_count() or 1
    try:
        ncores = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    commit = ""
    try:
        commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        if subprocess.run(["git", "-C", REPO, "diff", "--quiet", "HEAD"]).returncode != 0:
            commit += " (+ uncommitted changes)"
    except OSError:
        pass
    env = dict(os.environ)
    env.pop("TUCANA_NOCOMM_QUIET", None)  # its banner proves the preload took effect
    if "tucana_nocomm" in env.get("LD_PRELOAD", ""):
        env.pop("LD_PRELOAD")  # only the nocomm variant may have it
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    return {
        "ncores": ncores, "host": socket.gethostname(), "commit": commit or "unknown",
        "mpi_version": first_line(shlex.split(opts.mpirun) + ["--version"]),
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "cmdline": os.environ.get("TUCANA_BENCH_CMDLINE") or " ".join(
            shlex.quote(a) for a in [os.path.relpath(sys.argv[0])] + sys.argv[1:]),
        "launcher": launcher_kind(opts.mpirun), "notes": [], "layout": {},
        "tucana_run": os.path.join(opts.build, "bin", "tucana-run"), "env": env,
        "nocomm_lib": None, "network": "",
    }


def network_check(opts):
    """The network line, as netns-run.sh reports it for this setting."""
    if opts.network_mode == "shm":
        return "shared memory (no namespace, MPI's default transports: NOT the emulated interconnect)"
    if os.environ.get("TUCANA_NETWORK"):
        return os.environ["TUCANA_NETWORK"]
    cmd = ["bash", NETNS_RUN, "--check"] + (
        ["--unthrottled"] if opts.network_mode == "unthrottled" else ["--rate", opts.rate])
    r = subprocess.run(cmd, capture_output=True, text=True)
    nets = NETWORK_RE.findall(r.stderr)
    return nets[-1] if nets else "unknown (netns-run.sh --check printed no network line)"


def main(argv):
    opts = parse_args(argv)
    if opts.replot:
        ok = plot_matplotlib(opts.replot) if plotting.have_matplotlib() else make_plots(opts.replot, False)
        return 0 if ok else 1
    os.makedirs(opts.out, exist_ok=True)
    logdir = os.path.join(opts.out, "logs")
    os.makedirs(logdir, exist_ok=True)
    ctx = context(opts)
    opts.ctx = ctx
    ctx["ampi"] = ampi_tools(opts)

    # --netns once: run this script again inside one namespace, then plot here.
    if opts.netns == "once" and opts.network_mode != "shm" and not opts.inside_netns and not opts.dry_run:
        ns = ["--unthrottled"] if opts.network_mode == "unthrottled" else ["--rate", opts.rate]
        cmd = ["bash", NETNS_RUN] + ns + ["--", sys.executable, os.path.abspath(__file__),
                                          "--inside-netns", "--no-plots"] + argv
        print("entering one namespace for all runs: " + " ".join(shlex.quote(c) for c in cmd), flush=True)
        env = dict(ctx["env"], TUCANA_BENCH_CMDLINE=ctx["cmdline"])
        rc = subprocess.run(cmd, env=env).returncode
        if rc == 0 and not opts.no_plots:
            make_plots(opts.out)
        return rc

    if not os.path.exists(ctx["tucana_run"]) and any(v in SWEEP_VARIANTS for v in opts.variants_list):
        warn(f"{ctx['tucana_run']} is missing: tucana/virtualized/hybrid runs will fail")
    if "nocomm" in opts.variants_list and opts.dry_run and not opts.nocomm_lib:
        ctx["nocomm_lib"] = os.path.join(opts.build, "tools", "nocomm", "libtucana_nocomm.so")
    elif "nocomm" in opts.variants_list:
        ctx["nocomm_lib"] = find_nocomm(opts)
        if ctx["nocomm_lib"] is None:
            opts.variants_list = [v for v in opts.variants_list if v != "nocomm"]
            ctx["notes"].append("nocomm skipped: no libtucana_nocomm.so")

    if opts.inside_netns:
        ctx["network"] = os.environ.get("TUCANA_NETWORK", "")
    else:
        ctx["network"] = network_check(opts)
    print(f"network: {ctx['network']}", flush=True)
    if ctx["network"].startswith("unthrottled") and opts.network_mode == "tbf":
        warn("the loopback could not be throttled; measuring anyway (see the network line)")

    per_program = make_jobs(opts, ctx)
    schedule = []
    for rep in range(1, opts.reps + 1):
        for prog in opts.programs_list:
            jobs = per_program.get(prog, [])
            if not jobs:
                continue
            k = (rep - 1) % len(jobs)
            for j in jobs[k:] + jobs[:k]:  # rotated each repetition
                job = Job(j.program, j.variant, j.np, j.vf, rep, j.binary, j.args, j.main)
                job.cmd = build_command(job, opts, ctx)
                schedule.append(job)
    if not schedule:
        die("nothing to run (no program has a variant binary; see the warnings)")

    if opts.dry_run:
        for job in schedule:
            print(" ".join(shlex.quote(c) for c in wrap_netns(job.cmd, opts)))
        return 0

    fields = ["program", "variant", "np", "vf", "rep", "seconds", "status", "ranks", "checksum",
              "exit", "wall_seconds", "network", "main", "log"]
    results_path = os.path.join(opts.out, "results.csv")
    rows = []
    t_start = time.monotonic()
    print(f"{len(schedule)} runs, {opts.reps} repetition(s); results in {opts.out}", flush=True)
    with open(results_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        f.flush()
        for i, job in enumerate(schedule, 1):
            row = run_job(job, opts, ctx, logdir)
            if opts.netns == "once" or opts.network_mode == "shm":
                row["network"] = ctx["network"]
            rows.append(row)
            w.writerow(row)
            f.flush()
            vf = v_label(job.variant, job.vf).strip() or "    "
            progress(i, len(schedule), t_start,
                     f"{job.program:10s} {job.variant:11s} {vf:7s} rep {job.rep}/{opts.reps}",
                     seconds_cell(row), row)
    write_reports(opts, ctx, rows)
    print(f"wrote {results_path}, summary.md/.csv, vf_sweep.md/.csv in {opts.out}", flush=True)
    return finish(opts.out, "summary.md", rows, None if opts.no_plots else make_plots)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
