#!/usr/bin/python3
"""advise_eval.py -- the evaluation of tucana-advise (issue 16): the seed
paper's Section V on this machine's emulated interconnect.

For each program (default: ft, is, jacobi3d, stencil13, cannon, irregular,
multigrid) and each network (--rate, a comma list):

  (a) tucana-advise calibrate --name NET -o OUT/calibration-NET.json
          -- mpirun -np 2 ...                    once per network
  (b) tucana-advise profile -o OUT/NAME/profile-NET
          -- mpirun -np P ... NAME.original ARGS
  (c) tucana-advise report PROFILE --calibration CAL --percent PCT --json
          the sites the model selects, those the measurement selects, and
          modelled next to measured seconds of the top sites
  (d) tucana-advise check NAME.c --json -- FLAGS
          the verdict for every hot site (safe / unsafe / unsupported)
  (e) where a hot site is safe: tucana-advise rewrite --mpi NAME.c -o
      NAME_cco.c [--profile PROFILE] [--test-freq N] [--tune CMD] -- FLAGS,
      built with mpicc -O2 (the CCO variant), and rewrite --tucana, built
      with tucanacc -O2 (the annotation variant)
  (f) runs, interleaved and repeated (order rotated each repetition):
      original, cco, advise-tucana at each VF of --vf-list (the best VF
      counts) and, for the five older programs, their hand-written
      overlap variant and tucana variant (each VF); speedup % = 100 *
      (T_original / T_variant - 1) on the medians; a variant whose checksum
      differs from the original's gets no speedup.

Steps (a)-(c) and (f) run inside the emulated network (netns-run.sh, as
run_bench.py: a fresh namespace per command). Every tool that the
evaluation needs must exist (tucana-advise, tucanacc, tucana-run, the
MPI compiler): a missing one stops it at the start. A program whose hot
loop is unsafe is recorded as 'unsafe: <reason>' and its CCO and
annotation columns stay empty; a tool that fails on one program is
recorded in its row and the evaluation goes on.

    bench/harness/advise_eval.py --build build --reps 5 --out bench/results/advise
    bench/harness/advise_eval.py --build build --programs ft,is --quick --out /tmp/adv

Output in --out: advise_eval.md (the table), advise_eval.csv, results.csv
(every timed run), advise_eval.png (a bar chart of the speedups; needs
matplotlib for /usr/bin/python3, else skipped with a message), and per
program and network the tools' outputs (NAME/).
"""

import argparse
import csv
import datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plotting  # noqa: E402  (the harness's plotting end)
import run_bench as rb  # noqa: E402  (the harness's helpers: parse_*, Job, netns wrapping)

ALL_PROGRAMS = ["ft", "is", "jacobi3d", "stencil13", "cannon", "irregular", "multigrid"]
OLDER_PROGRAMS = ("jacobi3d", "stencil13", "cannon", "irregular", "multigrid")
# ft and is are not in run_bench.py's table: their sizes here.  Estimates
# of where the transpose / key exchange is about half of Original's time at
# 1 gbit on 2 ranks (see their READMEs), not measured yet.
EXTRA_PROGRAMS = {
    # NX NY NZ ITERATIONS (powers of two; NX, NZ multiples of every rank count)
    "ft": {"args": "256 256 128 6", "quick": "64 64 64 4"},
    # KEYS MAXKEY ITERATIONS
    "is": {"args": "16777216 1048576 10", "quick": "262144 32768 4"},
}
LIBS = {"ft": ["-lm"], "cannon": ["-lopenblas"]}
CFLAGS = ["-O2", "-g", "-Wall", "-Wextra", "-Wno-unknown-pragmas"]
PERCENT = 80.0  # the seed paper's threshold: sites covering 80% of communication time

# Variants of the timed runs: label -> how rb.build_command launches them.
NATIVE = ("original", "cco", "overlap")
SUBRANK = ("advise-tucana", "tucana")


def die(msg):
    print("advise_eval.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def warn(msg):
    print("advise_eval.py: warning: " + msg, file=sys.stderr, flush=True)


# ------------------------------------------------------- the tools' output

def parse_report(text):
    """tucana-advise report --json -> {"ranks", "comm_measured_s",
    "comm_modelled_s", "calibration", "sites": [...], "by_model": [site],
    "by_measurement": [site]} (sites as in the JSON, ordered by measured
    time).  Raises ValueError on malformed output."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"report: not JSON ({e})")
    if not isinstance(data, dict) or not isinstance(data.get("sites"), list):
        raise ValueError("report: no 'sites' list")
    sites = []
    for s in data["sites"]:
        if not isinstance(s, dict) or "site" not in s:
            raise ValueError(f"report: a site without 'site': {s!r}")
        site = dict(s)
        if site.get("line") is None:
            m = re.search(r":(\d+)$", str(site["site"]))
            site["line"] = int(m.group(1)) if m else None
        for k in ("measured_s", "modelled_s", "gap_s"):
            site[k] = float(site[k]) if site.get(k) is not None else None
        site["selected_model"] = bool(site.get("selected_model"))
        site["selected_measured"] = bool(site.get("selected_measured"))
        sites.append(site)
    sites.sort(key=lambda s: -(s["measured_s"] or 0.0))
    return {
        "ranks": data.get("ranks"),
        "comm_measured_s": data.get("comm_time_measured_s"),
        "comm_modelled_s": data.get("comm_time_modelled_s"),
        "calibration": data.get("calibration") or {},
        "sites": sites,
        "by_model": [s for s in sites if s["selected_model"]],
        "by_measurement": [s for s in sites if s["selected_measured"]],
    }


def parse_check(text):
    """tucana-advise check --json -> a list of {"line", "call", "verdict",
    "reasons", "replicate", "loop_line", "loop_end", "loop_var"}.  Raises
    ValueError on malformed output."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"check: not JSON ({e})")
    if not isinstance(data, dict) or not isinstance(data.get("loops"), list):
        raise ValueError("check: no 'loops' list")
    out = []
    for loop in data["loops"]:
        for s in loop.get("sites", []):
            if "line" not in s or "verdict" not in s:
                raise ValueError(f"check: a site without line or verdict: {s!r}")
            out.append({"line": int(s["line"]), "call": s.get("call", ""),
                        "verdict": str(s["verdict"]), "reasons": list(s.get("reasons") or []),
                        "replicate": list(s.get("replicate") or []),
                        "loop_line": loop.get("line"), "loop_end": loop.get("end_line"),
                        "loop_var": loop.get("var")})
    return out


def hot_sites(report):
    """The sites that either selection picks, by measured time."""
    return [s for s in report["sites"] if s["selected_model"] or s["selected_measured"]]


def match_site(site, checked, source_name, slack=5):
    """(the check entry of a report site, why there is none): the same
    line, else the nearest entry with the same call within `slack` lines
    (the profiler and the AST may disagree on the line of a call spread
    over several lines)."""
    f = os.path.basename(str(site.get("file") or str(site["site"]).rsplit(":", 1)[0]))
    line = site.get("line")
    if site.get("file") is None and line is None:
        return None, "no file:line (no debug info at the call)"
    if f and source_name and f != source_name:
        return None, f"in {f}, not {source_name}"
    if line is None:
        return None, "the report gives no line"
    for c in checked:
        if c["line"] == line:
            return c, ""
    near = [c for c in checked if c["call"] == site.get("call") and abs(c["line"] - line) <= slack]
    if near:
        return min(near, key=lambda c: abs(c["line"] - line)), ""
    # Part of a group: check reports the posts and waits of one Comm(i) (and
    # the sites in a callee) once, on the loop that gave the verdict; a site
    # inside that loop's lines takes the verdict of the innermost such loop.
    around = [c for c in checked if c.get("loop_line") and c.get("loop_end")
              and c["loop_line"] <= line <= c["loop_end"] and c["verdict"] != "unsupported"]
    if around:
        return min(around, key=lambda c: (c["loop_end"] - c["loop_line"], abs(c["line"] - line))), ""
    return None, f"line {line} is in no loop that check analysed"


def verdicts(report, checked, source_name):
    """Per hot site: {"site", "call", "verdict", "reasons"}; a site the check
    does not cover gets the verdict 'unsupported' and says why."""
    out = []
    for s in hot_sites(report):
        c, why = match_site(s, checked, source_name)
        if c is None:
            out.append({"site": s["site"], "call": s.get("call", ""), "verdict": "unsupported",
                        "reasons": [why]})
        else:
            out.append({"site": s["site"], "call": s.get("call", ""), "verdict": c["verdict"],
                        "reasons": c["reasons"]})
    return out


def verdict_text(vs):
    """One cell: 'safe', 'unsafe: <reason>', 'unsupported: <reason>', or
    per site when they differ; 'no hot site' when there is none."""
    if not vs:
        return "no hot site"
    kinds = {v["verdict"] for v in vs}

    def one(v):
        why = "; ".join(r for r in v["reasons"] if r)
        return v["verdict"] + (f": {why}" if why and v["verdict"] != "safe" else "")

    if len(kinds) == 1:
        v = next((v for v in vs if v["reasons"]), vs[0]) if "safe" not in kinds else vs[0]
        return one(v)
    return "; ".join(f"{v['site']} {one(v)}" for v in vs)


def rewritable(vs):
    return any(v["verdict"] == "safe" for v in vs)


def sites_text(sites):
    return ", ".join(f"{s['site']} {s.get('call', '')}".strip() for s in sites) or "none"


def seconds_of(sites):
    """(modelled, measured) seconds summed over sites (None when unknown)."""
    mo = [s["modelled_s"] for s in sites if s.get("modelled_s") is not None]
    me = [s["measured_s"] for s in sites if s.get("measured_s") is not None]
    return (sum(mo) if mo else None, sum(me) if me else None)


# ------------------------------------------------------- timed runs

def speedup_pct(t_orig, t):
    if not t_orig or not t:
        return None
    return 100.0 * (t_orig / t - 1.0)


def summarize_runs(rows, stat="median"):
    """{(program, network): {"original": t, "variants": {label: (t, vf,
    note)}}} from results rows.  A variant's best VF is its fastest; a
    variant whose checksum differs from the original's (or whose runs
    failed) gets t None and a note."""
    groups = rb.analyse([dict(r, program=f"{r['program']}@{r['network_name']}") for r in rows])
    out = {}
    for (unit, variant, vf), g in groups.items():
        prog, net = unit.rsplit("@", 1)
        out.setdefault((prog, net), {"original": None, "orig_sums": set(), "cands": {}})
        e = out[(prog, net)]
        if variant == "original":
            e["original"] = g[stat]
            e["orig_sums"] = g["checksums"]
        e["cands"].setdefault(variant, []).append((vf, g))
    for (prog, net), e in out.items():
        e["variants"] = {}
        for variant, cands in e["cands"].items():
            if variant == "original":
                continue
            best, notes = None, []
            for vf, g in cands:
                label = f"{variant}{rb.v_label(variant, vf)}"
                bad = [s for s in g["statuses"] if s != "ok"]
                if bad:
                    notes.append(f"{label}: {len(bad)} run(s) not ok ({','.join(sorted(set(bad)))})")
                if g["checksums"] and e["orig_sums"] and g["checksums"] != e["orig_sums"]:
                    notes.append(f"{label}: checksum differs from the original's")
                    continue
                if g[stat] is not None and (best is None or g[stat] < best[0]):
                    best = (g[stat], vf)
            e["variants"][variant] = (best[0] if best else None, best[1] if best else None,
                                      "; ".join(notes))
        del e["cands"]
    return out


def table_rows(analysis, timing, programs, networks):
    """The rows of advise_eval.csv/.md: one per program and network."""
    rows = []
    for net in networks:
        for prog in programs:
            a = analysis.get((prog, net), {})
            t = timing.get((prog, net), {"original": None, "variants": {}})
            rep = a.get("report")
            hot = hot_sites(rep) if rep else []
            mo, me = seconds_of(hot)
            t_orig = t["original"]

            def sp(variant):
                v = t["variants"].get(variant)
                if not v or v[0] is None:
                    return None, None, v[2] if v else ""
                return speedup_pct(t_orig, v[0]), v[1], v[2]

            cco, _, cco_note = sp("cco")
            ann, ann_vf, ann_note = sp("advise-tucana")
            virt, virt_vf, virt_note = sp("virtualized")
            best_exist = ""
            exist_notes = []
            for variant in ("overlap", "tucana"):
                s, vf, note = sp(variant)
                exist_notes.append(note)
                if s is not None and (not best_exist or s > best_exist[0]):
                    best_exist = (s, f"{variant}{rb.v_label(variant, vf)}")
            notes = [n for n in [a.get("note", ""), cco_note, ann_note, virt_note] + exist_notes if n]
            rows.append({
                "program": prog, "network": net,
                "hot_model": sites_text(rep["by_model"]) if rep else "n/a",
                "hot_measured": sites_text(rep["by_measurement"]) if rep else "n/a",
                "same_selection": ("yes" if {s["site"] for s in rep["by_model"]}
                                   == {s["site"] for s in rep["by_measurement"]} else "no") if rep else "",
                "modelled_s": rb.fmt(mo, 4) if mo is not None else "",
                "measured_s": rb.fmt(me, 4) if me is not None else "",
                "comm_modelled_s": rb.fmt(rep["comm_modelled_s"], 4)
                if rep and rep["comm_modelled_s"] is not None else "",
                "comm_measured_s": rb.fmt(rep["comm_measured_s"], 4)
                if rep and rep["comm_measured_s"] is not None else "",
                "verdict": a.get("verdict", "n/a"),
                "original_s": rb.fmt(t_orig, 4) if t_orig is not None else "",
                "speedup_cco_pct": f"{cco:.1f}" if cco is not None else "",
                "speedup_annotation_pct": f"{ann:.1f}" if ann is not None else "",
                "annotation_vf": ann_vf or "",
                "speedup_virtualized_pct": f"{virt:.1f}" if virt is not None else "",
                "virtualized_vf": virt_vf or "",
                "best_existing": f"{best_exist[1]} {best_exist[0]:.1f}%" if best_exist else "",
                "best_existing_pct": f"{best_exist[0]:.1f}" if best_exist else "",
                "note": "; ".join(notes),
            })
    return rows


FIELDS = ["program", "network", "hot_model", "hot_measured", "same_selection", "modelled_s",
          "measured_s", "comm_modelled_s", "comm_measured_s", "verdict", "original_s",
          "speedup_cco_pct", "speedup_annotation_pct", "annotation_vf", "speedup_virtualized_pct",
          "virtualized_vf", "best_existing",
          "best_existing_pct", "note"]


def md_table(rows):
    head = ["program", "network", "hot site(s) by model", "by measurement", "modelled s",
            "measured s", "verdict", "speedup CCO %", "speedup annotation % (VF)",
            "speedup virtualized % (VF)", "best existing variant", "note"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        ann = r["speedup_annotation_pct"] + (f" (VF {r['annotation_vf']})" if r["annotation_vf"] else "")
        virt = r.get("speedup_virtualized_pct", "") + (f" (VF {r['virtualized_vf']})"
                                                      if r.get("virtualized_vf") else "")
        cells = [r["program"], r["network"], r["hot_model"], r["hot_measured"], r["modelled_s"] or "n/a",
                 r["measured_s"] or "n/a", r["verdict"], r["speedup_cco_pct"] or "n/a", ann or "n/a",
                 virt or "n/a",
                 r["best_existing"] or ("-" if r["program"] not in OLDER_PROGRAMS else "n/a"),
                 r["note"]]
        out.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return out


# ------------------------------------------------------- tools and commands

def mpi_compile_flags(mpicc):
    """The include flags of the MPI compiler (Open MPI's --showme:compile,
    MPICH's -compile-info), for the Clang-based check and rewrite."""
    for probe in (["--showme:compile"], ["-compile-info"]):
        try:
            r = subprocess.run([mpicc] + probe, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0 and r.stdout.strip():
            return [w for w in shlex.split(r.stdout) if w.startswith(("-I", "-D", "-pthread"))]
    return []


def find_tools(opts):
    """{name: path}; stops with a clear message when one is missing."""
    tools = {
        "tucana-advise": os.path.abspath(opts.advise or os.path.join(opts.build, "bin", "tucana-advise")),
        "tucanacc": os.path.join(opts.build, "bin", "tucanacc"),
        "tucana-run": os.path.join(opts.build, "bin", "tucana-run"),
        "mpicc": os.path.abspath(shutil.which(opts.mpicc) or opts.mpicc),
        "mpirun": shutil.which(shlex.split(opts.mpirun)[0]) or opts.mpirun,
    }
    missing = [f"{k} ({v})" for k, v in tools.items() if not (os.path.isfile(v) and os.access(v, os.X_OK))]
    if missing:
        die("missing tool(s): " + ", ".join(missing) + ". Build them (cmake --build "
            f"{opts.build}; tucana-advise comes with tools/advise) or name them (--advise, --mpicc, "
            "--mpirun); the evaluation does not run without them")
    return tools


def in_network(cmd, opts, rate):
    """cmd inside the emulated network of `rate` (netns-run.sh, as run_bench.py)."""
    r = rate.strip().lower()
    if r == "shm":
        return cmd
    if r == "unthrottled":
        return ["bash", rb.NETNS_RUN, "--unthrottled", "--"] + cmd
    return ["bash", rb.NETNS_RUN, "--rate", rate, "--"] + cmd


def run_tool(cmd, log, opts, cwd=None):
    """Runs one tool command, its output to `log`; (returncode, stdout,
    stderr); 124 on timeout."""
    os.makedirs(os.path.dirname(log), exist_ok=True)
    if opts.verbose:
        print("  $ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=opts.timeout, cwd=cwd,
                           env=opts.env)
        rc, so, se = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        rc, so, se = 124, e.stdout or "", (e.stderr or "") + "\n(timed out)"
        so = so.decode() if isinstance(so, bytes) else so
        se = se.decode() if isinstance(se, bytes) else se
    with open(log, "w") as f:
        f.write("command: " + " ".join(shlex.quote(c) for c in cmd) + f"\nexit status: {rc}\n")
        f.write("---- stdout\n" + so + "\n---- stderr\n" + se)
    return rc, so, se


def first_error(stderr, rc):
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip() and not ln.startswith("network:")]
    return (lines[-1] if lines else f"exit status {rc}")[:200]


def program_args(prog, opts):
    info = dict(rb.DEFAULT_PROGRAM, **rb.PROGRAMS.get(prog, {}), **EXTRA_PROGRAMS.get(prog, {}))
    return opts.args_map.get(prog, info["quick"] if opts.quick else info["args"])


class RunOpts:
    """What rb.build_command / rb.run_job read from run_bench.py's options."""

    def __init__(self, opts, rate):
        self.mpirun, self.mpirun_args = opts.mpirun, opts.mpirun_args
        self.tucana_run_args = opts.tucana_run_args
        self.rate = rate
        r = rate.strip().lower()
        self.network_mode = r if r in ("unthrottled", "shm") else "tbf"
        self.netns = "per-run"
        self.timeout, self.out = opts.timeout, opts.out


def launch(variant, prog, binary, args, np_, vf, opts, ctx, rate):
    """An rb.Job of one timed run (its cmd without the namespace)."""
    kind = "original" if variant in NATIVE else "tucana"
    job = rb.Job(prog, kind, np_, None if variant in NATIVE else vf, 0, binary, args, True)
    job.cmd = rb.build_command(job, RunOpts(opts, rate), ctx)
    job.variant = variant
    return job


def network_name(rate):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", rate)


# ------------------------------------------------------- the analysis steps

def calibrate(tools, opts, ctx, rate):
    """(a): the calibration file of this network."""
    net = network_name(rate)
    out = os.path.join(opts.out, f"calibration-{net}.json")
    mpirun = shlex.split(opts.mpirun) + ["-np", "2"]
    if ctx["launcher"] == "openmpi" and ctx["ncores"] >= 2:
        mpirun += ["--bind-to", "core"]
    cmd = [tools["tucana-advise"], "calibrate", "--name", f"netns-{net}", "-o", out, "--"] + mpirun
    rc, so, se = run_tool(in_network(cmd, opts, rate), os.path.join(opts.out, "logs", f"calibrate-{net}.log"),
                          opts)
    if rc != 0 or not os.path.isfile(out):
        die(f"tucana-advise calibrate failed on {rate} ({first_error(se, rc)}; see "
            f"{os.path.join(opts.out, 'logs')}): no model without a calibration")
    return out


def analyse_program(prog, tools, opts, ctx, rate, calibration, flags):
    """(b)-(e) for one program on one network: {"report", "checked",
    "verdicts", "verdict", "binaries": {variant: path}, "note"}."""
    net = network_name(rate)
    d = os.path.join(opts.out, prog)
    logs = os.path.join(d, "logs")
    src = os.path.join(rb.REPO, "bench", "programs", prog, f"{prog}.c")
    res = {"report": None, "checked": [], "verdicts": [], "verdict": "n/a", "binaries": {}, "note": ""}
    # The original, built here with -g: the profiler names a call site
    # file:line from the debug info (GCC's code is the same with and without
    # -g). The variants below are built with the same flags.
    orig = os.path.join(d, f"{prog}.original")
    rc, so, se = run_tool([tools["mpicc"]] + CFLAGS + ["-o", orig, src] + LIBS.get(prog, []),
                          os.path.join(logs, "build-original.log"), opts)
    if rc != 0:
        res["note"] = f"the original does not build: {first_error(se, rc)}"
        res["verdict"] = "n/a: no original binary"
        return res
    res["binaries"]["original"] = orig
    # Plain virtualization (tucanacc --no-translate) is the reference of the
    # annotation route: what Tucana gives with no annotation at all.
    if prog in OLDER_PROGRAMS:
        virt = os.path.join(opts.build, "bench", "programs", prog, f"{prog}.virtualized")
        if os.access(virt, os.X_OK):
            res["binaries"]["virtualized"] = virt
    else:
        virt = os.path.join(d, f"{prog}.virtualized")
        rc, so, se = run_tool([tools["tucanacc"], "--no-translate"] + CFLAGS + ["-o", virt, src]
                              + LIBS.get(prog, []), os.path.join(logs, "build-virtualized.log"), opts)
        if rc == 0:
            res["binaries"]["virtualized"] = virt
    args = program_args(prog, opts)
    np_ = opts.np_map.get(prog, opts.np)

    # (b) profile, in the network
    profile = os.path.join(d, f"profile-{net}")
    job = launch("original", prog, orig, args, np_, None, opts, ctx, rate)
    cmd = [tools["tucana-advise"], "profile", "-o", profile, "--"] + job.cmd
    rc, so, se = run_tool(in_network(cmd, opts, rate), os.path.join(logs, f"profile-{net}.log"), opts,
                          cwd=os.path.dirname(orig))
    if rc != 0 or not os.path.exists(profile):
        res["note"] = f"profile failed: {first_error(se, rc)}"
        res["verdict"] = "n/a: no profile"
        return res

    # (c) report
    cmd = [tools["tucana-advise"], "report", profile, "--calibration", calibration,
           "--percent", str(opts.percent), "--json"]
    rc, so, se = run_tool(cmd, os.path.join(logs, f"report-{net}.log"), opts)
    try:
        if rc != 0:
            raise ValueError(f"report failed: {first_error(se, rc)}")
        res["report"] = parse_report(so)
        with open(os.path.join(d, f"report-{net}.json"), "w") as f:
            f.write(so)
    except ValueError as e:
        res["note"] = str(e)
        res["verdict"] = "n/a: no report"
        return res

    # (d) check
    cflags = flags + ["-I" + os.path.dirname(src)]
    cmd = [tools["tucana-advise"], "check", src, "--json", "--"] + cflags
    rc, so, se = run_tool(cmd, os.path.join(logs, f"check-{net}.log"), opts)
    try:
        if rc != 0:
            raise ValueError(f"check failed: {first_error(se, rc)}")
        res["checked"] = parse_check(so)
    except ValueError as e:
        res["note"] = str(e)
        res["verdict"] = "n/a: " + str(e)
        return res
    res["verdicts"] = verdicts(res["report"], res["checked"], os.path.basename(src))
    res["verdict"] = verdict_text(res["verdicts"])
    if not rewritable(res["verdicts"]):
        return res

    # (e) rewrite and build: --mpi (mpicc) and --tucana (tucanacc)
    notes = []
    for mode, variant, cc in (("--mpi", "cco", tools["mpicc"]),
                              ("--tucana", "advise-tucana", tools["tucanacc"])):
        out_c = os.path.join(d, f"{prog}_{variant.replace('-', '_')}-{net}.c")
        exe = os.path.join(d, f"{prog}.{variant}-{net}")
        cmd = [tools["tucana-advise"], "rewrite", mode, src, "-o", out_c, "--profile", profile,
               "--calibration", calibration, "--percent", str(opts.percent)]
        if opts.test_freq:
            cmd += ["--test-freq", str(opts.test_freq)]
        if opts.tune and mode == "--mpi":
            tune = launch("cco", prog, "{exe}", program_args(prog, opts), np_, None, opts, ctx, rate)
            cmd += ["--tune", " ".join(shlex.quote(c) for c in in_network(tune.cmd, opts, rate))]
        cmd += ["--"] + cflags
        rc, so, se = run_tool(cmd, os.path.join(logs, f"rewrite{mode[1:]}-{net}.log"), opts)
        if rc != 0 or not os.path.isfile(out_c):
            notes.append(f"rewrite {mode} failed: {first_error(se, rc)}")
            continue
        done = "pipelined" if mode == "--mpi" else "annotated for Tucana"
        if done not in so:
            why = [ln.split("not rewritten:", 1)[1].strip() for ln in so.splitlines() if "not rewritten:" in ln]
            notes.append(f"rewrite {mode}: nothing rewritten" + (f" ({why[0]})" if why else ""))
            continue
        cmd = [cc] + CFLAGS + ["-o", exe, out_c] + LIBS.get(prog, [])
        rc, so, se = run_tool(cmd, os.path.join(logs, f"build-{variant}-{net}.log"), opts)
        if rc != 0:
            notes.append(f"{variant} does not build: {first_error(se, rc)}")
            continue
        res["binaries"][variant] = exe
    res["note"] = "; ".join(notes)
    return res


# ------------------------------------------------------- the timed runs

def make_schedule(opts, ctx, analysis):
    """[(rate, Job)] repetition-major, each program's runs rotated by one per
    repetition (as run_bench.py)."""
    per = {}
    for rate in opts.rates:
        net = network_name(rate)
        for prog in opts.programs_list:
            a = analysis.get((prog, net))
            if not a or "original" not in a["binaries"]:
                continue
            args, np_ = program_args(prog, opts), opts.np_map.get(prog, opts.np)
            jobs = [launch("original", prog, a["binaries"]["original"], args, np_, None, opts, ctx, rate)]
            if "cco" in a["binaries"]:
                jobs.append(launch("cco", prog, a["binaries"]["cco"], args, np_, None, opts, ctx, rate))
            for vf in opts.vf_list:
                if "virtualized" in a["binaries"]:
                    jobs.append(launch("virtualized", prog, a["binaries"]["virtualized"], args, np_, vf,
                                       opts, ctx, rate))
                if "advise-tucana" in a["binaries"]:
                    jobs.append(launch("advise-tucana", prog, a["binaries"]["advise-tucana"], args, np_, vf,
                                       opts, ctx, rate))
            if prog in OLDER_PROGRAMS and not opts.no_existing:
                base = os.path.join(opts.build, "bench", "programs", prog)
                for variant in ("overlap", "tucana"):
                    exe = os.path.join(base, f"{prog}.{variant}")
                    if not os.access(exe, os.X_OK):
                        warn(f"{exe} is missing: {prog}'s {variant} variant not run")
                        continue
                    for vf in ([None] if variant == "overlap" else opts.vf_list):
                        jobs.append(launch(variant, prog, exe, args, np_, vf, opts, ctx, rate))
            per[(rate, prog)] = jobs
    sched = []
    for rep in range(1, opts.reps + 1):
        for (rate, prog), jobs in per.items():
            k = (rep - 1) % len(jobs)
            for j in jobs[k:] + jobs[:k]:
                job = rb.Job(j.program, j.variant, j.np, j.vf, rep, j.binary, j.args, True)
                job.cmd = j.cmd
                sched.append((rate, job))
    return sched


def run_schedule(sched, opts, ctx):
    fields = ["program", "network_name", "variant", "np", "vf", "rep", "seconds", "status", "ranks",
              "checksum", "exit", "wall_seconds", "network", "main", "log"]
    rows = []
    t0 = time.monotonic()
    with open(os.path.join(opts.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for i, (rate, job) in enumerate(sched, 1):
            logdir = os.path.join(opts.out, "logs", network_name(rate))
            os.makedirs(logdir, exist_ok=True)
            row = rb.run_job(job, RunOpts(opts, rate), ctx, logdir)
            row["network_name"] = network_name(rate)
            rows.append(row)
            w.writerow(row)
            f.flush()
            rb.progress(i, len(sched), t0,
                        f"{rate:8s} {job.program:10s} {job.variant:13s} "
                        f"{rb.v_label(job.variant, job.vf).strip():6s} rep {job.rep}",
                        rb.seconds_cell(row), row)
    return rows


# ------------------------------------------------------- reports and plot

def write_reports(opts, ctx, rows):
    rb.write_csv(os.path.join(opts.out, "advise_eval.csv"), rows, FIELDS)
    md = ["# tucana-advise: model, safety, and the speedup of the pipelined loops", "",
          f"- Networks: {'; '.join(opts.network_lines) or 'unknown'}",
          f"- Machine: {ctx['host']}, {ctx['ncores']} cores, {ctx['mpi_version']}",
          f"- Date: {ctx['date']}; commit {ctx['commit']}",
          f"- Command: `{ctx['cmdline']}`",
          f"- {opts.reps} repetition(s), all variants of a program interleaved (order rotated each "
          f"repetition); {opts.np} processes; annotation and tucana variants at VF "
          f"{','.join(map(str, opts.vf_list))} (the best counts)", "",
          f"Hot sites: those covering {opts.percent:g}% of the communication time, by the model "
          "(LogGP with this network's calibration) and by the measurement (the profile); modelled / "
          "measured s: their seconds summed over the sites either selection picks. speedup % = 100 * "
          f"(T_original / T_variant - 1) on the {opts.stat} times. CCO: `tucana-advise rewrite --mpi` "
          "built with mpicc -O2; annotation: `rewrite --tucana` built with tucanacc -O2 and run by "
          "tucana-run; virtualized: the original built with tucanacc --no-translate and run by "
          "tucana-run (no annotation: the reference of the annotation route); best existing variant: "
          "the hand-written overlap or tucana variant (older programs only).", ""]
    md += md_table(rows)
    if ctx["notes"]:
        md += ["", "## Notes", ""] + ["- " + n for n in ctx["notes"]]
    md.append("")
    with open(os.path.join(opts.out, "advise_eval.md"), "w") as f:
        f.write("\n".join(md))


def plot_matplotlib(out):
    plt = plotting.pyplot()

    rows = rb.load_results(os.path.join(out, "advise_eval.csv"))
    if not rows:
        return False
    labels = [r["program"] + (f"\n{r['network']}" if len({x['network'] for x in rows}) > 1 else "")
              for r in rows]
    series = [("speedup_cco_pct", "CCO (rewrite --mpi)", "#1f77b4"),
              ("speedup_annotation_pct", "annotation (rewrite --tucana, best VF)", "#d62728"),
              ("speedup_virtualized_pct", "virtualized, no annotation (best VF)", "#2ca02c"),
              ("best_existing_pct", "best existing variant", "#7f7f7f")]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(rows) + 2), 4.2))
    width = 0.8 / len(series)
    for k, (col, name, color) in enumerate(series):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(rows))]
        ys = [float(r[col]) if r[col] else 0.0 for r in rows]
        bars = ax.bar(xs, ys, width, label=name, color=color)
        for b, r in zip(bars, rows):
            if not r[col]:
                ax.annotate("n/a", (b.get_x() + b.get_width() / 2, 0), xytext=(0, 2),
                            textcoords="offset points", ha="center", fontsize=6)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("speedup over the original, %")
    ax.set_title("tucana-advise: pipelined loops against the original", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    plotting.save(fig, os.path.join(out, "advise_eval.png"))
    print(f"plot: {os.path.join(out, 'advise_eval.png')}", flush=True)
    return True


def make_plot(out):
    # (Never installs python3-matplotlib.)
    return plotting.plot(os.path.abspath(__file__), out, plot_matplotlib,
                         lambda msg: print("advise_eval.py: " + msg, flush=True),
                         "matplotlib is not available for /usr/bin/python3 (python3-matplotlib): "
                         "no plot (the table and the CSV are written; --replot OUT later)",
                         install=False)


# ------------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Evaluate tucana-advise: calibrate, profile, report, check, rewrite, and time "
                    "the pipelined programs against the original.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--build", default=os.path.join(rb.REPO, "build"), help="build directory (default ./build)")
    ap.add_argument("--programs", default=",".join(ALL_PROGRAMS), help="comma list (default: all seven)")
    ap.add_argument("--np", type=int, default=2, help="processes P (default 2)")
    ap.add_argument("--np-for", action="append", default=[], metavar="PROGRAM=P", help="per-program P")
    ap.add_argument("--rate", default=os.environ.get("TUCANA_NET_RATE", "1gbit"),
                    help="tbf rate(s) of the emulated network, a comma list (each a network: its own "
                         "calibration, profiles and runs); 'unthrottled', 'shm' as in run_bench.py. "
                         "Default 1gbit")
    ap.add_argument("--reps", type=int, default=None, help="repetitions (default 5; 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="1 repetition, small sizes, VF 2 only")
    ap.add_argument("--vf-list", default=None, help="VFs of the annotation and tucana variants "
                    "(default 2,4,8; 2 with --quick)")
    ap.add_argument("--percent", type=float, default=PERCENT,
                    help="report --percent: the share of communication time the hot sites cover (default 80)")
    ap.add_argument("--test-freq", type=int, default=None, help="rewrite --test-freq N (default: the tool's)")
    ap.add_argument("--tune", action="store_true",
                    help="rewrite --mpi --tune with a run of the program in the emulated network")
    ap.add_argument("--no-existing", action="store_true",
                    help="do not run the older programs' hand-written overlap and tucana variants")
    ap.add_argument("--analysis-only", action="store_true",
                    help="steps (a)-(e) only: no timed runs")
    ap.add_argument("--args", action="append", default=[], metavar='PROGRAM="ARGS"',
                    help="program arguments, overriding the sizes; repeatable")
    ap.add_argument("--advise", default=None, help="the tucana-advise driver (default BUILD/bin/tucana-advise)")
    ap.add_argument("--mpicc", default="mpicc", help="MPI C compiler of the CCO variant (default mpicc)")
    ap.add_argument("--mpirun", default=os.environ.get("TUCANA_NATIVE_MPIRUN", "mpirun"))
    ap.add_argument("--mpirun-args", default="", help="extra launcher options for every run")
    ap.add_argument("--tucana-run-args", default="", help="extra tucana-run options")
    ap.add_argument("--stat", choices=["median", "min"], default="median")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per command (default 600)")
    ap.add_argument("--out", default=None, help="output directory (default bench/results/advise-<date-time>)")
    ap.add_argument("--verbose", action="store_true", help="print the tool commands")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--replot", metavar="OUT", help="only redraw the plot of an existing OUT directory")
    opts = ap.parse_args(argv)
    if opts.replot:
        return opts
    opts.build = os.path.abspath(opts.build)
    opts.programs_list = rb.split_list(opts.programs)
    for p in opts.programs_list:
        if not os.path.isfile(os.path.join(rb.REPO, "bench", "programs", p, f"{p}.c")):
            die(f"unknown program '{p}' (no bench/programs/{p}/{p}.c)")
    opts.rates = rb.split_list(opts.rate) or ["1gbit"]
    if opts.reps is None:
        opts.reps = 1 if opts.quick else 5
    if opts.np < 1 or opts.reps < 1:
        die("--np and --reps must be >= 1")
    vfl = opts.vf_list or ("2" if opts.quick else "2,4,8")
    try:
        opts.vf_list = sorted({int(x) for x in rb.split_list(vfl)})
    except ValueError:
        die("--vf-list expects a comma list of integers")
    if not opts.vf_list or min(opts.vf_list) < 1:
        die("--vf-list needs VFs >= 1")
    opts.args_map = rb.parse_kv(opts.args, "--args")
    opts.np_map = rb.parse_kv(opts.np_for, "--np-for", int)
    if opts.out is None:
        opts.out = os.path.join(rb.REPO, "bench", "results",
                                "advise-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    opts.out = os.path.abspath(opts.out)
    return opts


def main(argv):
    opts = parse_args(argv)
    if opts.replot:
        return 0 if make_plot(opts.replot) else 1
    tools = find_tools(opts)
    os.makedirs(opts.out, exist_ok=True)
    ctx = rb.context(opts)
    ctx["tucana_run"] = tools["tucana-run"]
    ctx["env"].setdefault("OPENBLAS_NUM_THREADS", "1")
    opts.env = ctx["env"]
    flags = mpi_compile_flags(tools["mpicc"])
    opts.network_lines = []
    for rate in opts.rates:
        line = rb.network_check(RunOpts(opts, rate))
        opts.network_lines.append(f"{rate}: {line}")
        print(f"network {rate}: {line}", flush=True)
        if line.startswith("unthrottled") and rate.lower() not in ("unthrottled", "shm"):
            warn("the loopback could not be throttled; going on (see the network line)")

    analysis = {}
    for rate in opts.rates:
        print(f"calibrating {rate} ...", flush=True)
        cal = calibrate(tools, opts, ctx, rate)
        for prog in opts.programs_list:
            print(f"{prog} on {rate}: profile, report, check, rewrite ...", flush=True)
            a = analyse_program(prog, tools, opts, ctx, rate, cal, flags)
            analysis[(prog, network_name(rate))] = a
            print(f"  verdict: {a['verdict']}" + (f"  ({a['note']})" if a["note"] else ""), flush=True)
            if a["note"]:
                ctx["notes"].append(f"{prog} on {rate}: {a['note']}")

    timing = {}
    if not opts.analysis_only:
        sched = make_schedule(opts, ctx, analysis)
        print(f"{len(sched)} timed runs, {opts.reps} repetition(s); results in {opts.out}", flush=True)
        rows = run_schedule(sched, opts, ctx)
        timing = summarize_runs(rows, opts.stat)
        bad = [r for r in rows if r["status"] != "ok"]
        if bad:
            warn(f"{len(bad)} of {len(rows)} runs were not ok (see results.csv and logs/)")
    table = table_rows(analysis, timing, opts.programs_list, [network_name(r) for r in opts.rates])
    write_reports(opts, ctx, table)
    if not opts.no_plots and not opts.analysis_only:
        make_plot(opts.out)
    with open(os.path.join(opts.out, "advise_eval.md")) as f:
        print()
        print(f.read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
