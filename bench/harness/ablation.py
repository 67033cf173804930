#!/usr/bin/python3
"""ablation.py -- the runtime optimizations measured one by one (issue 15).

Runs a chain of steps -- each a variant of the benchmark programs, a list of
VFs (tasks per rank for hybrid) and tucana-run options -- together with the
reference variants (original, nocomm, overlap, virtualized), interleaved and
repeated over the emulated interconnect exactly as run_bench.py does (whose
functions it uses), and writes per program a table and a bar chart of
hidden % per step: the 2017 slides' roadmap figure.

    bench/harness/ablation.py --build build --programs jacobi3d,stencil13 \\
        --reps 5 --rate 1gbit,400mbit --out bench/results/ablation
    bench/harness/ablation.py --dry-run            # the steps and the commands

The steps file (JSON, default bench/harness/ablation_steps.json):

    {"steps": [
      {"label": "Toucan VF 2", "variant": ["toucan", "tucana"], "vf": [2],
       "options": "--boundary off --pack locked"},
      {"label": "best VF", "vf": [2, 4, 8]},
      {"label": "hybrid", "variant": "hybrid", "tasks": [2, 4, 8], "branch": true},
      {"label": "+ boundary first", "options": "--boundary first"}, ...]}

* options (tucana-run options, a string) accumulate from step to step: a
  step's options are the previous step's with its own added, or replacing
  those of the same name; "unset": ["--pack"] drops inherited ones;
* variant and vf (or tasks) are inherited from the previous step unless the
  step names them; a variant may be a list of candidates, of which the
  first that the program has is used ("variant": ["toucan", "tucana"]: the
  Toucan form with derived datatypes where the program has one, else the
  annotated program), and the next steps inherit the one used;
* a step with "branch": true is measured with what it inherits but the next
  steps build on the step before it (the hybrid bar beside the chain);
* a step whose variant a program lacks (no bench/programs/P/P_VARIANT.c and
  no --bin; for a list, none of its candidates) is skipped for that
  program, and the next steps build on the step before it.

A step's value is its best median time over its VFs (the table says which VF
won); hidden % = 100 * (T_original - T) / (T_original - T_nocomm) as in
run_bench.py; delta = the change in hidden % (points) from the step it
builds on.
"""

import argparse
import copy
import csv
import datetime
import json
import os
import shlex
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plotting  # noqa: E402  (the harness's plotting end)
import run_bench as rb  # noqa: E402  (the harness's own functions)

DEFAULT_STEPS = os.path.join(HERE, "ablation_steps.json")
REF_NATIVE = ("original", "nocomm", "overlap")
REF_COLORS = {"overlap": rb.VARIANT_COLORS["overlap"], "virtualized": rb.VARIANT_COLORS["virtualized"]}


def die(msg):
    print("ablation.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


# -------------------------------------------------------------- the steps

def parse_options(text):
    """'--a x --b=y --flag' -> [('--a', 'x'), ('--b', 'y'), ('--flag', None)]."""
    toks = shlex.split(text or "")
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if not t.startswith("--"):
            raise ValueError(f"an option (--NAME) expected, got '{t}'")
        if "=" in t:
            k, v = t.split("=", 1)
            out.append((k, v))
            i += 1
        elif i + 1 < len(toks) and not toks[i + 1].startswith("--"):
            out.append((t, toks[i + 1]))
            i += 2
        else:
            out.append((t, None))
            i += 1
    return out


def options_text(opts):
    """The tucana-run words of an option dict, in its order."""
    return " ".join(k if v is None else f"{k} {shlex.quote(v)}" for k, v in opts.items())


def load_steps(path):
    with open(path) as f:
        data = json.load(f)
    steps = data.get("steps") if isinstance(data, dict) else data
    if not isinstance(steps, list) or not steps:
        raise ValueError(f"{path}: no 'steps' list")
    labels = set()
    for i, s in enumerate(steps):
        if not isinstance(s, dict) or not s.get("label"):
            raise ValueError(f"{path}: step {i + 1} has no label")
        if s["label"] in labels:
            raise ValueError(f"{path}: two steps labelled '{s['label']}'")
        labels.add(s["label"])
        v = s.get("variant")
        if v is not None and not (isinstance(v, str) and v or isinstance(v, list) and v
                                  and all(isinstance(x, str) and x for x in v)):
            raise ValueError(f"{path}: step '{s['label']}': variant must be a name or a non-empty "
                             "list of names (candidates, the first that a program has is used)")
        vfs = s.get("vf", s.get("tasks"))
        if vfs is not None and (not isinstance(vfs, list) or not vfs
                                or not all(isinstance(v, int) and v >= 1 for v in vfs)):
            raise ValueError(f"{path}: step '{s['label']}': vf/tasks must be a list of integers >= 1")
        parse_options(s.get("options", ""))  # raises on a malformed string
    if not steps[0].get("variant") or steps[0].get("vf", steps[0].get("tasks")) is None:
        raise ValueError(f"{path}: the first step must name its variant and its vf (or tasks) list")
    return steps


def variant_candidates(variant):
    """A step's variant as its list of candidates ([] when it names none)."""
    if not variant:
        return []
    return [variant] if isinstance(variant, str) else list(variant)


def resolve_steps(steps, available):
    """The steps of one program, resolved: variant, VFs and options
    accumulated as the module docstring says.  available(variant) -> '' if
    the program has the variant, else the reason to skip.  Returns a list of
    {label, variant (the candidate used; for a skipped step its candidates
    joined by '|'), vfs, options (dict), branch, base (label of the step it
    builds on, or None), skipped (reason or '')}.  A step that names no
    variant inherits the one the step it builds on used."""
    state = {"variant": None, "vfs": None, "options": {}, "label": None}
    out = []
    for s in steps:
        cands = variant_candidates(s.get("variant")) or variant_candidates(state["variant"])
        reasons = [available(v) for v in cands]
        used = [v for v, why in zip(cands, reasons) if not why]
        variant = used[0] if used else "|".join(cands)
        skipped = "" if used else ("; ".join(reasons) or "no variant to inherit")
        vfs = s.get("vf", s.get("tasks")) or state["vfs"] or []
        opts = dict(state["options"])
        for k in s.get("unset", []):
            opts.pop(k, None)
        for k, v in parse_options(s.get("options", "")):
            opts[k] = v
        r = {"label": s["label"], "variant": variant, "vfs": sorted(set(vfs)), "options": opts,
             "branch": bool(s.get("branch")), "base": state["label"], "skipped": skipped}
        out.append(r)
        if not r["skipped"] and not r["branch"]:
            state = {"variant": variant, "vfs": r["vfs"], "options": opts, "label": s["label"]}
    return out


def variant_source(prog, variant):
    if variant == "tucana":
        return f"{prog}_annotated.c"
    if variant in ("virtualized", "original", "nocomm"):
        return f"{prog}.c"
    # (stencil13's directional variant is its annotated file)
    return rb.GRAPH_SOURCES.get((prog, variant), f"{prog}_{variant}.c")


def make_available(prog, opts):
    def available(variant):
        if any(k in opts.bin_map for k in (variant, f"{prog}:{variant}")):
            return ""
        src = variant_source(prog, variant)
        if not os.path.isfile(os.path.join(rb.REPO, "bench", "programs", prog, src)):
            return f"no {variant} variant (no bench/programs/{prog}/{src})"
        return ""
    return available


# ------------------------------------------------------------------ plan

class Config:
    """One thing to run: variant, V (None for native), tucana-run options."""

    def __init__(self, cid, variant, v, options):
        self.cid, self.variant, self.v, self.options = cid, variant, v, options


def make_plan(opts, steps):
    """{program: {"steps": resolved steps, "configs": [Config], "step_cfgs":
    {label: [cid per VF]}, "ref_virt": [cid], "args": str}} and the config
    ids, shared across programs (the same variant, V and options)."""
    ids = {}

    def cfg_id(variant, v, options):
        key = (variant, v, options)
        if key not in ids:
            ids[key] = Config(f"c{len(ids)}", variant, v, options)
        return ids[key].cid

    plan = {}
    for prog in opts.programs_list:
        info = dict(rb.DEFAULT_PROGRAM, **rb.PROGRAMS.get(prog, {}))
        args = opts.args_map.get(prog, info["quick"] if opts.quick else info["args"])
        # --subrank-layout: as run_bench.py's, the subrank runs at VF >= 2 lay
        # their subranks across the process boundary (the same problem)
        virtual_args = args
        if getattr(opts, "subrank_layout", False) and not opts.quick and prog not in opts.args_map and info.get("virtual_args"):
            virtual_args = info["virtual_args"]
        resolved = resolve_steps(steps, make_available(prog, opts))
        first_opts = options_text(resolved[0]["options"]) if resolved else ""
        used = []
        for variant in REF_NATIVE:
            used.append(cfg_id(variant, None, ""))
        rv = opts.ref_options if opts.ref_options is not None else first_opts
        ref_virt = [cfg_id("virtualized", v, rv) for v in opts.ref_vf_list]
        used += ref_virt
        step_cfgs = {}
        for r in resolved:
            if r["skipped"]:
                continue
            step_cfgs[r["label"]] = [cfg_id(r["variant"], v, options_text(r["options"])) for v in r["vfs"]]
            used += step_cfgs[r["label"]]
        plan[prog] = {"steps": resolved, "step_cfgs": step_cfgs, "ref_virt": ref_virt, "args": args,
                      "virtual_args": virtual_args, "cids": list(dict.fromkeys(used))}
    by_id = {c.cid: c for c in ids.values()}
    return plan, by_id


# ------------------------------------------------------------------ runs

def job_opts(opts, rate, options):
    """A copy of opts for one run: its rate, its extra tucana-run options."""
    o = copy.copy(opts)
    o.rate = rate
    r = rate.strip().lower()
    o.network_mode = r if r in ("unthrottled", "shm") else "tbf"
    o.tucana_run_args = " ".join(x for x in (opts.tucana_run_args, options) if x)
    o.netns = "per-run"
    return o


def make_schedule(opts, ctx, plan, by_id):
    """(rate, Job, opts of the job, Config) in run order: repetition-major,
    each program's runs rotated by one at each repetition (as run_bench.py)."""
    binaries = {}
    for prog, p in plan.items():
        for cid in p["cids"]:
            c = by_id[cid]
            if (prog, c.variant) not in binaries:
                binaries[(prog, c.variant)] = rb.variant_binary(prog, c.variant, opts)
    sched = []
    for rep in range(1, opts.reps + 1):
        for rate in opts.rates:
            for prog, p in plan.items():
                cfgs = [by_id[c] for c in p["cids"] if binaries.get((prog, by_id[c].variant))]
                if not cfgs:
                    continue
                k = (rep - 1) % len(cfgs)
                for c in cfgs[k:] + cfgs[:k]:
                    subranks = c.variant in rb.TUCANA_VARIANTS and c.v is not None and c.v >= 2
                    job = rb.Job(prog, c.variant, opts.np_map.get(prog, opts.np), c.v, rep,
                                 binaries[(prog, c.variant)], p["virtual_args"] if subranks else p["args"], True)
                    jo = job_opts(opts, rate, c.options if c.variant not in rb.NATIVE_VARIANTS else "")
                    job.cmd = rb.build_command(job, jo, ctx)
                    sched.append((rate, job, jo, c))
    return sched


# -------------------------------------------------------------- analysis

def summarize(opts, plan, by_id, rows):
    """Rows of ablation.csv: per program and rate the reference variants
    (kind 'reference') and the steps (kind 'step')."""
    grouped = [dict(r, program=f"{r['program']}@{r['rate']}", variant=r["config"]) for r in rows]
    groups = rb.analyse(grouped)
    stat = opts.stat
    out = []
    for rate in opts.rates:
        for prog, p in plan.items():
            unit = f"{prog}@{rate}"

            def g(cid, v):
                return groups.get((unit, cid, v))

            def t(cid, v):
                x = g(cid, v)
                return x[stat] if x else None

            cid_of = {by_id[c].variant: c for c in p["cids"] if by_id[c].variant in REF_NATIVE}
            g_orig, g_noc = g(cid_of["original"], None), g(cid_of["nocomm"], None)
            t_orig, t_noc = t(cid_of["original"], None), t(cid_of["nocomm"], None)
            ref_sums = g_orig["checksums"] if g_orig else set()

            def hid(tv):
                if not (g_orig and g_noc):
                    return None, "needs original and nocomm runs"
                return rb.hidden(t_orig, tv, t_noc, g_orig, g_noc)

            def checks(cids_vs):
                notes = []
                for cid, v in cids_vs:
                    x = g(cid, v)
                    if not x:
                        continue
                    bad = [s for s in x["statuses"] if s != "ok"]
                    if bad:
                        notes.append(f"{rb.v_label(by_id[cid].variant, v).strip() or by_id[cid].variant}: "
                                     f"{len(bad)} run(s) not ok ({','.join(sorted(set(bad)))})")
                    if by_id[cid].variant != "nocomm" and x["checksums"]:
                        if len(x["checksums"]) > 1:
                            notes.append(f"{by_id[cid].variant} {v or ''}: checksum differs between repetitions")
                        elif ref_sums and x["checksums"] != ref_sums:
                            notes.append(f"{by_id[cid].variant} {v or ''}: checksum differs from Original")
                return notes

            def row(kind, label, variant, cids_vs, options="", base=""):
                cands = [(t(cid, v), v, cid) for cid, v in cids_vs if t(cid, v) is not None]
                best = min(cands, key=lambda c: c[0]) if cands else None
                tv = best[0] if best else None
                h, note = hid(tv) if (variant not in ("original", "nocomm") and tv is not None) else (None, "")
                notes = [note] if note else []
                if variant == "nocomm" and t_orig and tv:
                    notes.insert(0, f"communication = {100.0 * (t_orig - tv) / t_orig:.1f}% of T_original")
                notes += checks(cids_vs)
                gb = g(best[2], best[1]) if best else None
                return {"program": prog, "rate": rate, "kind": kind, "step": label, "base": base or "",
                        "variant": variant, "vf": best[1] if best and best[1] else "",
                        "median_s": rb.fmt(tv, 6) if tv is not None else "",
                        "min_s": rb.fmt(gb["min"], 6) if gb and gb["min"] is not None else "",
                        "runs_ok": len(gb["times"]) if gb else 0, "runs": gb["runs"] if gb else 0,
                        "speedup": f"{t_orig / tv:.3f}" if (t_orig and tv) else "",
                        "hidden_pct": f"{h:.1f}" if h is not None else "", "delta_hidden": "",
                        "options": options, "stat": stat,
                        "sweep": " ".join(f"{v}:{rb.fmt(t(cid, v), 4)}" for cid, v in cids_vs if v),
                        "note": "; ".join(notes)}

            refs = [row("reference", name, name, [(cid_of[name], None)]) for name in ("original", "nocomm", "overlap")]
            refs.append(row("reference", "virtualized (best VF)", "virtualized",
                            [(c, by_id[c].v) for c in p["ref_virt"]], by_id[p["ref_virt"][0]].options
                            if p["ref_virt"] else ""))
            steps = []
            by_label = {}
            for s in p["steps"]:
                if s["skipped"]:
                    steps.append({"program": prog, "rate": rate, "kind": "skipped", "step": s["label"],
                                  "base": s["base"] or "", "variant": s["variant"], "vf": "", "median_s": "",
                                  "min_s": "", "runs_ok": 0, "runs": 0, "speedup": "", "hidden_pct": "",
                                  "delta_hidden": "", "options": options_text(s["options"]), "stat": stat,
                                  "sweep": "", "note": "skipped: " + s["skipped"]})
                    continue
                cids = p["step_cfgs"][s["label"]]
                r = row("step", s["label"], s["variant"], list(zip(cids, s["vfs"])),
                        options_text(s["options"]), s["base"])
                if s["branch"]:
                    r["note"] = "; ".join(filter(None, ["branch: the next steps build on " +
                                                        (s["base"] or "nothing"), r["note"]]))
                base = by_label.get(s["base"])
                if base and base["hidden_pct"] and r["hidden_pct"]:
                    r["delta_hidden"] = f"{float(r['hidden_pct']) - float(base['hidden_pct']):+.1f}"
                by_label[s["label"]] = r
                steps.append(r)
            out += refs + steps
    return out


FIELDS = ["program", "rate", "kind", "step", "base", "variant", "vf", "median_s", "min_s", "runs_ok",
          "runs", "speedup", "hidden_pct", "delta_hidden", "options", "stat", "sweep", "note"]


def md_tables(summary, rates):
    """The markdown of ablation.md's tables, one per program and rate."""
    md = []
    units = list(dict.fromkeys((r["program"], r["rate"]) for r in summary))
    for prog, rate in units:
        rows = [r for r in summary if r["program"] == prog and r["rate"] == rate]
        title = prog if len(rates) == 1 else f"{prog} at {rate}"
        md += [f"## {title}", "",
               "| step | variant | VF/tasks | median s | hidden % | delta (points) | builds on | note |",
               "|---|---|---|---|---|---|---|---|"]
        for r in rows:
            if r["kind"] == "reference":
                continue
            md.append(f"| {r['step']} | {r['variant']} | {r['vf'] or '-'} | {r['median_s'] or 'n/a'} | "
                      f"{r['hidden_pct'] or 'n/a'} | {r['delta_hidden'] or '-'} | {r['base'] or '-'} | "
                      f"{r['note']} |")
        md += ["", "| reference | VF | median s | hidden % | note |", "|---|---|---|---|---|"]
        for r in rows:
            if r["kind"] == "reference":
                md.append(f"| {r['step']} | {r['vf'] or '-'} | {r['median_s'] or 'n/a'} | "
                          f"{r['hidden_pct'] or 'n/a'} | {r['note']} |")
        opts = [(r["step"], r["options"]) for r in rows if r["kind"] != "reference"]
        md += ["", "Options (tucana-run) per step:", ""]
        md += [f"- {label}: `{o}`" if o else f"- {label}: (none)" for label, o in opts]
        md.append("")
    return md


def shown_path(path):
    rel = os.path.relpath(path, rb.REPO)
    return path if rel.startswith("..") else rel


def write_reports(opts, ctx, summary, rows):
    rb.write_csv(os.path.join(opts.out, "ablation.csv"), summary, FIELDS)
    nets = sorted(set(r["network"] for r in rows if r.get("network")))
    head = ["# Ablation: the runtime optimizations one by one", "",
            f"- Network: {'; '.join(nets) or 'unknown'}",
            f"- Machine: {ctx['host']}, {ctx['ncores']} cores, {ctx['mpi_version']}",
            f"- Date: {ctx['date']}; commit {ctx['commit']}",
            f"- Command: `{ctx['cmdline']}`",
            f"- Steps: `{shown_path(opts.steps)}`; {opts.reps} repetition(s), all runs "
            "interleaved (order rotated each repetition)", "",
            f"hidden % = 100 * (T_original - T) / (T_original - T_nocomm) on the {opts.stat} times; "
            "a step's T is its best over its VFs (VF/tasks: the one that won; the `sweep` column of "
            "ablation.csv has them all); delta: hidden % minus that of the step it builds on.", ""]
    if any(n.startswith("unthrottled") for n in nets):
        head.append("**Warning: the interconnect was not throttled.**\n")
    md = head + md_tables(summary, opts.rates)
    if ctx["notes"]:
        md += ["## Notes", ""] + ["- " + n for n in ctx["notes"]] + [""]
    with open(os.path.join(opts.out, "ablation.md"), "w") as f:
        f.write("\n".join(md))


# ------------------------------------------------------------------ plots

def plot_matplotlib(out):
    plt = plotting.pyplot()

    summary = rb.load_results(os.path.join(out, "ablation.csv"))
    units = list(dict.fromkeys((r["program"], r["rate"]) for r in summary))
    rates = list(dict.fromkeys(r["rate"] for r in summary))
    files = []
    for prog, rate in units:
        rows = [r for r in summary if r["program"] == prog and r["rate"] == rate]
        steps = [r for r in rows if r["kind"] == "step"]
        if not steps:
            continue
        fig, ax = plt.subplots(figsize=(max(5.0, 1.0 + 0.9 * len(steps)), 4.2))
        hs = [float(r["hidden_pct"]) if r["hidden_pct"] else 0.0 for r in steps]
        colors = ["#9467bd" if r["variant"] in rb.HYBRID_VARIANTS else "#d62728" for r in steps]
        bars = ax.bar(range(len(steps)), hs, color=colors)
        for b, r in zip(bars, steps):
            label = (r["hidden_pct"] + "%") if r["hidden_pct"] else "n/a"
            if r["vf"]:
                label += "\n" + rb.v_label(r["variant"], r["vf"]).strip()
            ax.annotate(label, (b.get_x() + b.get_width() / 2, max(b.get_height(), 0)),
                        xytext=(0, 3), textcoords="offset points", ha="center", va="bottom", fontsize=7)
        for r in rows:
            if r["kind"] == "reference" and r["variant"] in REF_COLORS and r["hidden_pct"]:
                name = r["step"] + (rb.v_label(r["variant"], r["vf"], ", ") if r["vf"] else "")
                ax.axhline(float(r["hidden_pct"]), color=REF_COLORS[r["variant"]],
                           linestyle="--" if r["variant"] == "overlap" else ":",
                           label=f"{name}: {r['hidden_pct']}%")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(steps)))
        ax.set_xticklabels([r["step"] for r in steps], fontsize=8, rotation=25, ha="right")
        ax.set_ylabel("hidden %")
        ax.set_ylim(min(0, min(hs)) - 5, max(hs + [100]) * 1.15)
        ax.set_title(f"{prog}" + (f" at {rate}" if rate else ""), fontsize=10)
        ax.legend(fontsize=7, loc="upper left")
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        name = f"ablation_{prog}.png" if len(rates) == 1 else f"ablation_{prog}_{rate}.png"
        plotting.save(fig, os.path.join(out, name))
        files.append(name)
    print("plots: " + ", ".join(os.path.join(out, f) for f in files), flush=True)
    return bool(files)


def make_plots(out):
    """With matplotlib in this interpreter, or in /usr/bin/python3 (installed
    with apt-get when root; see plotting.plot); else no plots."""
    return plotting.plot(os.path.abspath(__file__), out, plot_matplotlib, rb.warn,
                         "matplotlib is not available: no plots (install python3-matplotlib, then --replot OUT)")


# ------------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Tucana's runtime optimizations one by one: hidden % per step of a chain.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--build", default=os.path.join(rb.REPO, "build"), help="build directory (default ./build)")
    ap.add_argument("--steps", default=DEFAULT_STEPS, help="steps file (JSON; default ablation_steps.json)")
    ap.add_argument("--programs", default="jacobi3d,stencil13,cannon,irregular,multigrid",
                    help="comma list (default: the five of run_bench.py)")
    ap.add_argument("--np", type=int, default=2, help="processes P (default 2)")
    ap.add_argument("--reps", type=int, default=None, help="repetitions (default 5; 1 with --quick)")
    ap.add_argument("--rate", default=os.environ.get("TUCANA_NET_RATE", "1gbit"),
                    help="tbf rate(s), a comma list (e.g. 1gbit,400mbit: each program at each rate, all "
                         "interleaved); 'unthrottled', 'shm' as in run_bench.py. Default 1gbit")
    ap.add_argument("--ref-vf", default="2,4,8", help="VFs of the virtualized reference (default 2,4,8)")
    ap.add_argument("--ref-options", default=None,
                    help="tucana-run options of the virtualized reference (default: the first step's; "
                         "'' for tucana-run's defaults)")
    ap.add_argument("--out", default=None, help="output directory (default bench/results/ablation-<date-time>)")
    ap.add_argument("--args", action="append", default=[], metavar='PROGRAM="ARGS"',
                    help="program arguments, overriding run_bench.py's table; repeatable")
    ap.add_argument("--np-for", action="append", default=[], metavar="PROGRAM=P", help="per-program P")
    ap.add_argument("--bin", action="append", default=[], metavar="[PROGRAM:]VARIANT=PATH",
                    help="binary of a variant, as in run_bench.py; repeatable")
    ap.add_argument("--subrank-layout", action="store_true",
                    help="as run_bench.py's: the subrank runs at VF >= 2 tile the process boundary "
                         "(the programs' virtual_args), the native and hybrid runs keep the slab")
    ap.add_argument("--quick", action="store_true", help="1 repetition, run_bench.py's small sizes")
    ap.add_argument("--stat", choices=["median", "min"], default="median", help="as in run_bench.py")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    ap.add_argument("--mpirun", default=os.environ.get("TUCANA_NATIVE_MPIRUN", "mpirun"))
    ap.add_argument("--mpirun-args", default="", help="extra launcher options for every run")
    ap.add_argument("--tucana-run-args", default="", help="tucana-run options for every tucana-run run")
    ap.add_argument("--mpicc", default="mpicc")
    ap.add_argument("--nocomm-lib", default=None)
    ap.add_argument("--dry-run", action="store_true", help="print the resolved steps and the commands")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--replot", metavar="OUT", help="only redraw the plots of an existing OUT directory")
    opts = ap.parse_args(argv)
    if opts.replot:
        return opts
    opts.build = os.path.abspath(opts.build)
    opts.programs_list = rb.split_list(opts.programs)
    opts.rates = rb.split_list(opts.rate) or ["1gbit"]
    opts.rate = opts.rates[0]
    opts.network_mode = opts.rate.lower() if opts.rate.lower() in ("unthrottled", "shm") else "tbf"
    opts.netns = "per-run"
    if opts.reps is None:
        opts.reps = 1 if opts.quick else 5
    if opts.np < 1 or opts.reps < 1:
        die("--np and --reps must be >= 1")
    try:
        opts.ref_vf_list = sorted({int(x) for x in rb.split_list(opts.ref_vf)})
    except ValueError:
        die("--ref-vf expects a comma list of integers")

    opts.args_map = rb.parse_kv(opts.args, "--args")
    opts.np_map = rb.parse_kv(opts.np_for, "--np-for", int)
    opts.bin_map = rb.parse_kv(opts.bin, "--bin")
    if opts.out is None:
        opts.out = os.path.join(rb.REPO, "bench", "results",
                                "ablation-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    opts.out = os.path.abspath(opts.out)
    opts.steps = os.path.abspath(opts.steps)
    return opts


def print_plan(plan, by_id):
    for prog, p in plan.items():
        print(f"{prog}: `{p['args']}`")
        rv = [by_id[c] for c in p["ref_virt"]]
        if rv:
            print(f"  references: original, nocomm, overlap; virtualized VF "
                  f"{','.join(str(c.v) for c in rv)} [{rv[0].options}]")
        for s in p["steps"]:
            if s["skipped"]:
                print(f"  - {s['label']}: skipped ({s['skipped']})")
                continue
            what = "tasks" if s["variant"] in rb.HYBRID_VARIANTS else "VF"
            print(f"  - {s['label']}: {s['variant']} {what} {','.join(map(str, s['vfs']))} "
                  f"[{options_text(s['options'])}]" + (" (branch)" if s["branch"] else "")
                  + (f" <- {s['base']}" if s["base"] else ""))


def main(argv):
    opts = parse_args(argv)
    if opts.replot:
        return 0 if make_plots(opts.replot) else 1
    try:
        steps = load_steps(opts.steps)
    except (OSError, ValueError) as e:
        die(str(e))
    os.makedirs(opts.out, exist_ok=True)
    ctx = rb.context(opts)
    opts.ctx = ctx  # variant_binary records its notes there
    plan, by_id = make_plan(opts, steps)
    for prog, p in plan.items():
        for s in p["steps"]:
            if s["skipped"]:
                ctx["notes"].append(f"{prog}: step '{s['label']}' skipped: {s['skipped']}")
    if opts.dry_run and not opts.nocomm_lib:
        ctx["nocomm_lib"] = os.path.join(opts.build, "tools", "nocomm", "libtucana_nocomm.so")
    else:
        ctx["nocomm_lib"] = rb.find_nocomm(opts)
        if ctx["nocomm_lib"] is None:
            die("no libtucana_nocomm.so: hidden % needs the nocomm variant")
    print_plan(plan, by_id)
    sched = make_schedule(opts, ctx, plan, by_id)
    if not sched:
        die("nothing to run (see the warnings)")
    if opts.dry_run:
        for rate, job, jo, c in sched:
            print(" ".join(shlex.quote(x) for x in rb.wrap_netns(job.cmd, jo)))
        return 0

    for rate in opts.rates:
        print(f"network at {rate}: {rb.network_check(job_opts(opts, rate, ''))}", flush=True)
    fields = ["program", "rate", "config", "variant", "np", "vf", "options", "rep", "seconds", "status",
              "ranks", "checksum", "exit", "wall_seconds", "network", "main", "log"]
    rows = []
    t0 = time.monotonic()
    print(f"{len(sched)} runs, {opts.reps} repetition(s); results in {opts.out}", flush=True)
    with open(os.path.join(opts.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for i, (rate, job, jo, c) in enumerate(sched, 1):
            logdir = os.path.join(opts.out, "logs", rate, c.cid)
            os.makedirs(logdir, exist_ok=True)
            row = rb.run_job(job, jo, ctx, logdir)
            row.update(rate=rate, config=c.cid, options=c.options)
            rows.append(row)
            w.writerow(row)
            f.flush()
            rb.progress(i, len(sched), t0,
                        f"{rate:8s} {job.program:10s} {job.variant:11s} "
                        f"{rb.v_label(job.variant, job.vf).strip():8s} {c.cid:4s} rep {job.rep}",
                        rb.seconds_cell(row), row)
    summary = summarize(opts, plan, by_id, rows)
    write_reports(opts, ctx, summary, rows)
    return rb.finish(opts.out, "ablation.md", rows, None if opts.no_plots else make_plots)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
