#!/usr/bin/python3
"""tpod_sweep.py -- the TPOD paper's Fig. 7 on this machine: the grind time
of tpod.hybrid (bench/programs/tpod/: a task per block, each exchanging its
own faces) against the block size, at one fixed problem, with tpod.original
(one block per rank, exchange then compute) as the reference.

    bench/harness/tpod_sweep.py --build build --np 2 \\
        --args "256 256 128 50" --blocks 8,16,32,64,whole --reps 3 \\
        --rate 1gbit --out bench/results/tpod

Runs, over the emulated interconnect of run_bench.py (a fresh network
namespace per run whose loopback is throttled with tc tbf: netns-run.sh),
interleaved and repeated (the order rotated at each repetition):
  original   mpirun -np P --bind-to core BUILD/bench/programs/tpod/tpod.original ARGS 0 0 0
  block B    tucana-run -np P [--workers W] --mpirun-args "--bind-to core"
                 BUILD/bench/programs/tpod/tpod.hybrid ARGS BX BY BZ SEED
A block size is B (a cube), BXxBYxBZ, or "whole" (the whole subdomain: one
block per rank, as the original, but run as a task).

Writes results.csv (every run), tpod_sweep.md / tpod_sweep.csv (per block
size: median, minimum and maximum grind time and time, blocks per rank,
speedup over the original), and grind_vs_block.png (matplotlib, else
grind_vs_block.svg). Grind time = the timed loop's time / (NX * NY * NZ *
ITERATIONS), in ns per point per step, as the programs print it.

Only the Python standard library is needed; the PNG plot uses matplotlib as
run_bench.py does (see README.md).
"""

import argparse
import csv
import datetime
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plotting  # noqa: E402  (the harness's plotting end)
import run_bench as rb  # noqa: E402  (the namespace wrapper, parsing)

GRIND_RE = re.compile(r"^grind\s+([-+0-9.eE]+)", re.M)
BLOCKS_RE = re.compile(r"^blocks\s+(\d+)x(\d+)x(\d+):\s+\S+\s+=\s+(\d+) per rank.*?(\d+) with messages", re.M)
DEFAULT_ARGS = "256 256 128 50"
QUICK_ARGS = "64 64 32 5"


def parse_blocks(text):
    """[(label, [bx, by, bz])]: '8' -> 8 8 8, '8x16x4', 'whole' -> 0 0 0."""
    out = []
    for item in rb.split_list(text):
        low = item.lower()
        if low in ("whole", "all", "0"):
            out.append(("whole", [0, 0, 0]))
            continue
        parts = re.split(r"[x*]", low)
        try:
            dims = [int(x) for x in parts]
        except ValueError:
            rb.die(f"--blocks: bad block size '{item}' (B, BXxBYxBZ or whole)")
        if len(dims) == 1:
            dims = dims * 3
        if len(dims) != 3 or min(dims) < 1:
            rb.die(f"--blocks: bad block size '{item}' (B, BXxBYxBZ or whole)")
        label = str(dims[0]) if len(set(dims)) == 1 else "x".join(map(str, dims))
        out.append((label, dims))
    if not out:
        rb.die("--blocks: no block size")
    return out


def run_one(cmd, opts, env, log, cwd):
    """Runs cmd (a session of its own, killed whole at the timeout); returns
    (exit status, stdout, stderr, wall seconds, timed out)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=cwd, env=env, start_new_session=True)
    timed_out = False
    try:
        so, se = p.communicate(timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        so, se = "", ""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                so, se = p.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
    wall = time.monotonic() - t0
    rc = 124 if timed_out else p.returncode
    so, se = so or "", se or ""
    with open(log, "w") as f:
        f.write("command: " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        f.write(f"exit status: {rc}{' (timed out)' if timed_out else ''}; wall {wall:.3f} s\n")
        f.write("---- stdout\n" + so + "\n---- stderr\n" + se)
    return rc, so, se, wall, timed_out


def command(kind, dims, opts, ctx):
    """The argv of one run (without the namespace wrapper)."""
    bind = opts.np <= ctx["ncores"]
    args = shlex.split(opts.args)
    if kind == "original":
        cmd = shlex.split(opts.mpirun) + ["-np", str(opts.np)]
        if ctx["launcher"] == "openmpi":
            cmd += ["--bind-to", "core"] if bind else ["--oversubscribe", "--bind-to", "none"]
        elif bind:
            cmd += ["-bind-to", "core"]
        cmd += shlex.split(opts.mpirun_args)
        return cmd + [ctx["original"]] + args + ["0", "0", "0"]
    cmd = [ctx["tucana_run"], "-np", str(opts.np)]
    if opts.workers > 1:
        cmd += ["--workers", str(opts.workers)]  # tucana-run unbinds the process itself
    extra = []
    if bind and opts.workers == 1:
        extra = ["--bind-to", "core"] if ctx["launcher"] == "openmpi" else ["-bind-to", "core"]
    extra += shlex.split(opts.mpirun_args)
    if extra:
        cmd += ["--mpirun-args", " ".join(extra)]
    cmd += shlex.split(opts.tucana_run_args)
    return cmd + [ctx["hybrid"]] + args + [str(d) for d in dims] + [str(opts.seed)]


def summarize(rows, order):
    """Per configuration (original, then the block sizes in order)."""
    out = []
    orig = [float(r["grind_ns"]) for r in rows if r["config"] == "original" and r["status"] == "ok"]
    t_orig = statistics.median(orig) if orig else None
    ref_sums = {r["checksum"] for r in rows if r["config"] == "original" and r["status"] == "ok"}
    for cfg in ["original"] + order:
        rs = [r for r in rows if r["config"] == cfg]
        if not rs:
            continue
        ok = [r for r in rs if r["status"] == "ok"]
        g = [float(r["grind_ns"]) for r in ok]
        t = [float(r["seconds"]) for r in ok]
        sums = {r["checksum"] for r in ok}
        notes = []
        if len(ok) < len(rs):
            notes.append(f"{len(rs) - len(ok)} run(s) not ok: "
                         + ",".join(sorted({r['status'] for r in rs if r['status'] != 'ok'})))
        if len(sums) > 1:
            notes.append("checksum differs between repetitions")
        elif ref_sums and sums and sums != ref_sums and cfg != "original":
            notes.append("checksum differs from the original")
        med = statistics.median(g) if g else None
        first = ok[0] if ok else rs[0]
        out.append({
            "config": cfg, "block": first["block"], "blocks_per_rank": first["blocks_per_rank"],
            "with_messages": first["with_messages"], "runs_ok": len(ok), "runs": len(rs),
            "median_grind_ns": f"{med:.4f}" if med is not None else "",
            "min_grind_ns": f"{min(g):.4f}" if g else "",
            "max_grind_ns": f"{max(g):.4f}" if g else "",
            "median_s": f"{statistics.median(t):.6f}" if t else "",
            "speedup": f"{t_orig / med:.3f}" if (med and t_orig) else "",
            "note": "; ".join(notes),
        })
    return out


def write_reports(opts, ctx, rows, order):
    summary = summarize(rows, order)
    fields = ["config", "block", "blocks_per_rank", "with_messages", "runs_ok", "runs",
              "median_grind_ns", "min_grind_ns", "max_grind_ns", "median_s", "speedup", "note"]
    rb.write_csv(os.path.join(opts.out, "tpod_sweep.csv"), summary, fields)
    networks = sorted({r["network"] for r in rows if r.get("network")})
    net = "; ".join(networks) or ctx["network"]
    workers = f" x {opts.workers} workers" if opts.workers > 1 else ""
    order_text = f"in a shuffled order (seed {opts.seed})" if opts.seed else "in their natural order"
    md = ["# TPOD: grind time against the block size", "",
          f"- Network: {net}",
          f"- Machine: {ctx['host']}, {ctx['ncores']} cores, {ctx['mpi_version']}",
          f"- Date: {ctx['date']}; commit {ctx['commit']}",
          f"- Command: `{ctx['cmdline']}`",
          f"- Problem: `tpod {opts.args}` (NX NY NZ ITERATIONS) on {opts.np} processes{workers}; "
          f"tpod.hybrid spawns the blocks {order_text}",
          f"- Repetitions: {opts.reps} (configurations interleaved, order rotated each repetition)", ""]
    if any(n.startswith("unthrottled") for n in networks):
        md.append("**Warning: the interconnect was not throttled.**\n")
    md += ["grind = time / (NX * NY * NZ * ITERATIONS), ns per point per step (median of the "
           "repetitions; min and max beside it); speedup = original's median grind / this one's. "
           "block: the block of rank 0 (the last block along an axis may be smaller); "
           "with messages: rank 0's blocks on a face with a neighbour.", ""]
    cols = ["config", "block", "blocks_per_rank", "with_messages", "runs_ok", "median_grind_ns",
            "min_grind_ns", "max_grind_ns", "median_s", "speedup", "note"]
    heads = ["configuration", "block", "blocks per rank", "with messages", "ok runs",
             "grind ns (median)", "min", "max", "time s (median)", "speedup", "note"]
    md += [rb.md_table(summary, cols, heads), ""]
    md += ["Files: results.csv (every run), tpod_sweep.csv (this table), grind_vs_block.png "
           "(or .svg), logs/.", ""]
    with open(os.path.join(opts.out, "tpod_sweep.md"), "w") as f:
        f.write("\n".join(md))
    return summary


# ------------------------------------------------------------------ plots

def read_summary(out):
    with open(os.path.join(out, "tpod_sweep.csv"), newline="") as f:
        return list(csv.DictReader(f))


def plot_png(out):
    plt = plotting.pyplot()
    rows = read_summary(out)
    orig = [r for r in rows if r["config"] == "original" and r["median_grind_ns"]]
    pts = [r for r in rows if r["config"] != "original" and r["median_grind_ns"]]
    if not pts and not orig:
        rb.warn("no results to plot")
        return False
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    xs = list(range(len(pts)))
    med = [float(r["median_grind_ns"]) for r in pts]
    lo = [m - float(r["min_grind_ns"] or m) for m, r in zip(med, pts)]
    hi = [float(r["max_grind_ns"] or m) - m for m, r in zip(med, pts)]
    if pts:
        ax.errorbar(xs, med, yerr=[lo, hi], marker="o", capsize=3, color=rb.VARIANT_COLORS["hybrid"],
                    label="tpod.hybrid (a task per block)")
    if orig:
        ax.axhline(float(orig[0]["median_grind_ns"]), color=rb.VARIANT_COLORS["original"], linestyle="--",
                   label="tpod.original (one block, exchange then compute)")
    ax.set_xticks(xs)
    ax.set_xticklabels([label_of(r) for r in pts], fontsize=8)
    ax.set_xlabel("block size (points per side; whole = the rank's subdomain)")
    ax.set_ylabel("grind time (ns per point per step)")
    ax.set_ylim(bottom=0)
    ax.set_title("TPOD: grind time against the block size", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    plotting.save(fig, os.path.join(out, "grind_vs_block.png"))
    print(f"plot: {out}/grind_vs_block.png", flush=True)
    return True


def label_of(r):
    if r["config"] == "whole":
        return f"whole\n{r['block']}" if r["block"] else "whole"
    return r["config"]


def plot_svg(out):
    rows = read_summary(out)
    orig = [r for r in rows if r["config"] == "original" and r["median_grind_ns"]]
    pts = [r for r in rows if r["config"] != "original" and r["median_grind_ns"]]
    if not pts and not orig:
        return False
    w, h, m = 560, 340, 60
    vals = [float(r["max_grind_ns"] or r["median_grind_ns"]) for r in pts]
    vals += [float(orig[0]["median_grind_ns"])] if orig else []
    top = max(vals + [1e-9]) * 1.15

    def X(i):
        return m + (w - m - 30) * (i + 0.5) / max(1, len(pts))

    def Y(v):
        return h - m - (h - m - 40) * v / top

    parts = [f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="13">TPOD: grind time against '
             f'the block size</text>',
             f'<line x1="{m}" y1="{h - m}" x2="{w - 20}" y2="{h - m}" stroke="black"/>',
             f'<line x1="{m}" y1="40" x2="{m}" y2="{h - m}" stroke="black"/>',
             f'<text x="14" y="{h / 2}" font-size="10" transform="rotate(-90 14 {h / 2})" '
             f'text-anchor="middle">grind (ns per point per step)</text>']
    for k in range(5):
        v = top * k / 4
        parts.append(f'<text x="{m - 4}" y="{Y(v) + 4:.1f}" text-anchor="end" font-size="9">{v:.3g}</text>')
    col = rb.VARIANT_COLORS["hybrid"]
    if pts:
        parts.append(f'<polyline fill="none" stroke="{col}" stroke-width="2" points="'
                     + " ".join(f"{X(i):.1f},{Y(float(r['median_grind_ns'])):.1f}" for i, r in enumerate(pts))
                     + '"/>')
    for i, r in enumerate(pts):
        parts.append(f'<circle cx="{X(i):.1f}" cy="{Y(float(r["median_grind_ns"])):.1f}" r="3" fill="{col}"/>')
        parts.append(f'<text x="{X(i):.1f}" y="{h - m + 14}" text-anchor="middle" font-size="9">'
                     f'{rb._esc(label_of(r).replace(chr(10), " "))}</text>')
    if orig:
        y = Y(float(orig[0]["median_grind_ns"]))
        parts.append(f'<line x1="{m}" y1="{y:.1f}" x2="{w - 20}" y2="{y:.1f}" '
                     f'stroke="{rb.VARIANT_COLORS["original"]}" stroke-dasharray="5,4"/>')
        parts.append(f'<text x="{w - 22}" y="{y - 4:.1f}" text-anchor="end" font-size="9">original</text>')
    parts.append(f'<text x="{m + 6}" y="52" font-size="10" fill="{col}">tpod.hybrid (a task per block)</text>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif">'
           f'<rect width="100%" height="100%" fill="white"/>' + "".join(parts) + "</svg>\n")
    with open(os.path.join(out, "grind_vs_block.svg"), "w") as f:
        f.write(svg)
    print(f"plot: {out}/grind_vs_block.svg", flush=True)
    return True


def make_plot(out):
    """PNG with matplotlib here or in /usr/bin/python3 (as run_bench.py), else SVG."""
    return plotting.plot(os.path.abspath(__file__), out, plot_png, rb.warn,
                         "matplotlib is not available: writing grind_vs_block.svg instead of the PNG",
                         fallback=plot_svg)


# ------------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="TPOD block-size sweep (the paper's Fig. 7): tpod.hybrid's grind time against "
                    "the block size, over a throttled loopback.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--build", default=os.path.join(rb.REPO, "build"), help="build directory (default ./build)")
    ap.add_argument("--np", type=int, default=2, help="processes = ranks P (default 2)")
    ap.add_argument("--workers", type=int, default=1, help="workers per process for tpod.hybrid (default 1)")
    ap.add_argument("--args", default=None, help=f'NX NY NZ ITERATIONS (default "{DEFAULT_ARGS}"; '
                                                 f'--quick: "{QUICK_ARGS}")')
    ap.add_argument("--blocks", default=None,
                    help="comma list of block sizes: B (a cube), BXxBYxBZ, whole "
                         "(default 8,16,32,64,whole; --quick: 8,16,whole)")
    ap.add_argument("--seed", type=int, default=1, help="shuffle seed of tpod.hybrid (0: natural order)")
    ap.add_argument("--reps", type=int, default=None, help="repetitions (default 3; 1 with --quick)")
    ap.add_argument("--no-original", action="store_true", help="do not run tpod.original")
    ap.add_argument("--rate", default=os.environ.get("TUCANA_NET_RATE", "1gbit"),
                    help="tbf rate (default 1gbit); 'unthrottled' or 'shm' as in run_bench.py")
    ap.add_argument("--out", default=None, help="output directory (default bench/results/tpod-<date-time>)")
    ap.add_argument("--quick", action="store_true", help="1 repetition, a small problem, 3 block sizes")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    ap.add_argument("--mpirun", default=os.environ.get("TUCANA_NATIVE_MPIRUN", "mpirun"),
                    help="launcher of tpod.original (default mpirun)")
    ap.add_argument("--mpirun-args", default="", help="extra launcher options for every run")
    ap.add_argument("--tucana-run-args", default="", help="extra tucana-run options")
    ap.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    ap.add_argument("--no-plots", action="store_true", help="skip the plot")
    ap.add_argument("--replot", metavar="OUT", help="only redraw the plot of an existing OUT directory")
    opts = ap.parse_args(argv)
    if opts.replot:
        return opts
    opts.build = os.path.abspath(opts.build)
    if opts.args is None:
        opts.args = QUICK_ARGS if opts.quick else DEFAULT_ARGS
    if len(shlex.split(opts.args)) != 4:
        rb.die("--args takes NX NY NZ ITERATIONS")
    if opts.blocks is None:
        opts.blocks = "8,16,whole" if opts.quick else "8,16,32,64,whole"
    opts.block_list = parse_blocks(opts.blocks)
    if opts.reps is None:
        opts.reps = 1 if opts.quick else 3
    if opts.np < 1 or opts.workers < 1 or opts.reps < 1 or opts.seed < 0:
        rb.die("--np, --workers and --reps must be >= 1, --seed >= 0")
    r = opts.rate.strip().lower()
    opts.network_mode = r if r in ("unthrottled", "shm") else "tbf"
    opts.netns = "per-run"  # run_bench.py's default: a fresh namespace per run
    if opts.out is None:
        opts.out = os.path.join(rb.REPO, "bench", "results",
                                "tpod-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    opts.out = os.path.abspath(opts.out)
    return opts


def main(argv):
    opts = parse_args(argv)
    if opts.replot:
        ok = plot_png(opts.replot) if plotting.have_matplotlib() else plot_svg(opts.replot)
        return 0 if ok else 1
    os.makedirs(os.path.join(opts.out, "logs"), exist_ok=True)
    ctx = rb.context(opts)
    tdir = os.path.join(opts.build, "bench", "programs", "tpod")
    ctx["original"] = os.path.join(tdir, "tpod.original")
    ctx["hybrid"] = os.path.join(tdir, "tpod.hybrid")
    for key in (["hybrid"] if opts.no_original else ["original", "hybrid"]):
        if not os.access(ctx[key], os.X_OK) and not opts.dry_run:
            rb.die(f"{ctx[key]} is missing (build the project: cmake --build {opts.build})")
    if not os.path.exists(ctx["tucana_run"]) and not opts.dry_run:
        rb.die(f"{ctx['tucana_run']} is missing")
    ctx["network"] = rb.network_check(opts)
    print(f"network: {ctx['network']}", flush=True)
    if ctx["network"].startswith("unthrottled") and opts.network_mode == "tbf":
        rb.warn("the loopback could not be throttled; measuring anyway (see the network line)")

    configs = ([] if opts.no_original else [("original", None)]) + [(lab, dims) for lab, dims in opts.block_list]
    order = [lab for lab, _ in opts.block_list]
    schedule = []
    for rep in range(1, opts.reps + 1):
        k = (rep - 1) % len(configs)
        for cfg, dims in configs[k:] + configs[:k]:
            kind = "original" if dims is None else "hybrid"
            schedule.append((rep, cfg, kind, rb.wrap_netns(command(kind, dims, opts, ctx), opts)))
    if opts.dry_run:
        for _, _, _, cmd in schedule:
            print(" ".join(shlex.quote(c) for c in cmd))
        return 0

    fields = ["config", "rep", "seconds", "grind_ns", "status", "checksum", "block", "blocks_per_rank",
              "with_messages", "exit", "wall_seconds", "network", "log"]
    rows = []
    print(f"{len(schedule)} runs, {opts.reps} repetition(s); results in {opts.out}", flush=True)
    t_start = time.monotonic()
    with open(os.path.join(opts.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for i, (rep, cfg, kind, cmd) in enumerate(schedule, 1):
            log = os.path.join(opts.out, "logs", f"tpod.{cfg}.rep{rep}.log")
            rc, so, se, wall, timed_out = run_one(cmd, opts, ctx["env"], log, os.path.dirname(ctx[kind]))
            seconds = rb.parse_time(so)
            gm = GRIND_RE.search(so)
            bm = BLOCKS_RE.search(so)
            verdict = rb.parse_ok(so)
            nets = rb.NETWORK_RE.findall(se)
            if timed_out:
                status = "timeout"
            elif seconds is None or gm is None:
                status = "no-time"
            elif rc != 0 or verdict == "failed":
                status = "failed"
            elif verdict != "ok":
                status = "no-ok-line"
            else:
                status = "ok"
            row = {"config": cfg, "rep": rep, "seconds": f"{seconds:.6f}" if seconds is not None else "",
                   "grind_ns": gm.group(1) if gm else "", "status": status,
                   "checksum": rb.parse_checksum(so),
                   "block": "x".join(bm.group(1, 2, 3)) if bm else ("subdomain" if kind == "original" else ""),
                   "blocks_per_rank": bm.group(4) if bm else ("1" if kind == "original" else ""),
                   "with_messages": bm.group(5) if bm else "",
                   "exit": rc, "wall_seconds": f"{wall:.3f}",
                   "network": nets[-1] if nets else ctx["network"],
                   "log": os.path.relpath(log, opts.out)}
            rows.append(row)
            w.writerow(row)
            f.flush()
            g = f"{float(row['grind_ns']):8.3f} ns" if row["grind_ns"] else "       - "
            rb.progress(i, len(schedule), t_start, f"{cfg:10s} rep {rep}/{opts.reps}", f"grind {g}", row)
    write_reports(opts, ctx, rows, order)
    return rb.finish(opts.out, "tpod_sweep.md", rows, None if opts.no_plots else make_plot)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
