#!/usr/bin/python3
"""measure.py: hidden communication of LULESH under Tucana, on the emulated
interconnect (bench/harness/README.md, docs/lulesh.md).

Runs the variants of one LULESH problem side by side, each repetition in a
rotated order, every run in a fresh throttled network namespace
(bench/harness/netns-run.sh), and reports the median of LULESH's own
"Elapsed time" (the time loop, maximum over ranks; computed from the per-domain
grind time, as LULESH prints the elapsed time with 2 significant digits)
per variant:

  original     mpirun -np N ORIGINAL -s S -i I    (N processes, oversubscribed
                                                   when N exceeds the cores)
  nocomm       the same with LD_PRELOAD=tools/nocomm's libtucana_nocomm.so
  isolate      the same with LD_PRELOAD=libisolate.so (bench/lulesh/isolate.c:
               every rank runs its own domain, no halo exchange)
  tucana       tucana-run -np P --vf V TUCANA -s S -i I   (N = P*V subranks)
  virtualized  the same with the unannotated build

  hidden % = 100 * (T_original - T_variant) / (T_original - T_nocomm)

with T_nocomm from the nocomm variant, or from isolate where nocomm has no
time (LULESH aborts under libtucana_nocomm.so: docs/lulesh.md).

usage: measure.py --work DIR (from run.sh --work DIR --keep --build-only)
                  --bin BUILD/bin [--nocomm-lib SO] [--isolate-lib SO]
                  [-n 8] [--np 2] [--vf 4] [-s 30] [-i 40] [--reps 5]
                  [--variants original,nocomm,isolate,tucana,virtualized]
                  [--rate 1gbit] [--out DIR]
"""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NETNS = os.path.join(ROOT, "bench", "harness", "netns-run.sh")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="run.sh's --work directory (original/, tucana/, virtualized/)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--nocomm-lib", default=os.path.join(ROOT, "build", "lib", "libtucana_nocomm.so"))
    ap.add_argument("--isolate-lib", default="", help="default: compiled from isolate.c into --out")
    ap.add_argument("-n", type=int, default=8, help="ranks of the native runs = subranks of Tucana's")
    ap.add_argument("--np", type=int, default=2, help="processes of tucana-run")
    ap.add_argument("--vf", default="4", help="subranks per process, or 'vranks' for --vranks N")
    ap.add_argument("-s", type=int, default=30)
    ap.add_argument("-i", type=int, default=40)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--variants", default="original,nocomm,isolate,tucana,virtualized")
    ap.add_argument("--rate", default="1gbit", help="tbf rate; 'unthrottled' = no namespace (TCP over lo)")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--mpirun-args", default="--oversubscribe --bind-to none")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="")
    a = ap.parse_args()

    out = a.out or os.path.join(a.work, "measure-" + time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    isolate = a.isolate_lib
    variants = a.variants.split(",")
    if "isolate" in variants and not isolate:
        isolate = os.path.join(out, "libisolate.so")
        subprocess.run(["mpicc", "-O2", "-shared", "-fPIC", "-o", isolate, os.path.join(HERE, "isolate.c")],
                       check=True)
    nocomm = a.nocomm_lib
    if "nocomm" in variants and not os.path.exists(nocomm):
        nocomm = os.path.join(out, "libtucana_nocomm.so")
        subprocess.run(["mpicc", "-O2", "-shared", "-fPIC", "-o", nocomm,
                        os.path.join(ROOT, "tools", "nocomm", "nocomm.c")], check=True)

    args = ["-s", str(a.s), "-i", str(a.i)]
    native = [a.mpirun, "-np", str(a.n)] + a.mpirun_args.split()
    lay = ["--vranks", str(a.n)] if a.vf == "vranks" else ["--vf", a.vf]
    tr = [os.path.join(a.bin, "tucana-run"), "-np", str(a.np)] + lay
    cmds = {
        "original": native + [os.path.join(a.work, "original", "lulesh2.0")] + args,
        "nocomm": native + ["-x", "LD_PRELOAD=" + nocomm, os.path.join(a.work, "original", "lulesh2.0")] + args,
        "isolate": native + ["-x", "LD_PRELOAD=" + isolate, os.path.join(a.work, "original", "lulesh2.0")] + args,
        "tucana": tr + [os.path.join(a.work, "tucana", "lulesh2.0")] + args,
        "virtualized": tr + [os.path.join(a.work, "virtualized", "lulesh2.0")] + args,
    }
    for v in variants:
        if v not in cmds:
            sys.exit("measure.py: unknown variant " + v)
    if a.rate == "unthrottled":
        wrap = [NETNS, "--unthrottled", "--"]
    else:
        wrap = [NETNS, "--rate", a.rate, "--"]

    rows = []
    print("LULESH -s %d -i %d, %d ranks; tucana-run -np %d %s; rate %s; %d repetitions"
          % (a.s, a.i, a.n, a.np, " ".join(lay), a.rate, a.reps), flush=True)
    for rep in range(a.reps):
        order = variants[rep % len(variants):] + variants[:rep % len(variants)]
        for v in order:
            cmd = wrap + cmds[v]
            log = os.path.join(out, "logs", "%s.rep%d.log" % (v, rep))
            t0 = time.monotonic()
            try:
                p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                   timeout=a.timeout, text=True, errors="replace")
                text, rc = p.stdout, p.returncode
            except subprocess.TimeoutExpired as e:
                text = e.stdout or ""
                if isinstance(text, bytes):
                    text = text.decode(errors="replace")
                rc = "timeout"
            wall = time.monotonic() - t0
            with open(log, "w") as f:
                f.write(" ".join(cmd) + "\n" + text + "\nexit %s\n" % rc)
            # LULESH prints "Elapsed time" with 2 significant digits; the
            # time loop's seconds are per-domain grind time x cycles x s^3.
            g = re.search(r"Grind time \(us/z/c\)\s*=\s*([0-9.eE+-]+) \(per dom\)", text)
            c = re.search(r"Iteration count\s*=\s*([0-9]+)", text)
            m = g and c
            e = re.search(r"Final Origin Energy\s*=\s*(\S+)", text)
            net = re.search(r"^network: (.*)$", text, re.M)
            secs = round(float(g.group(1)) * int(c.group(1)) * a.s ** 3 / 1e6, 4) if m else None
            status = "ok" if (m and rc == 0) else ("aborted" if "MPI_ABORT" in text else "failed")
            rows.append(dict(variant=v, rep=rep, seconds=secs, wall=round(wall, 3), status=status, exit=rc,
                             energy=e.group(1) if e else "", network=net.group(1) if net else ""))
            print("%-12s rep %d  %s  time %s  wall %.2f  energy %s"
                  % (v, rep, status, secs, wall, e.group(1) if e else "-"), flush=True)

    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)

    med = {}
    lines = ["| variant | ok runs | median s | min s | max s | hidden % |", "|---|---|---|---|---|---|"]
    for v in variants:
        t = [r["seconds"] for r in rows if r["variant"] == v and r["status"] == "ok"]
        if t:
            med[v] = statistics.median(t)
    t_nocomm = med.get("nocomm", med.get("isolate"))
    base = "nocomm" if "nocomm" in med else ("isolate" if "isolate" in med else None)
    for v in variants:
        t = sorted(r["seconds"] for r in rows if r["variant"] == v and r["status"] == "ok")
        n_all = sum(1 for r in rows if r["variant"] == v)
        hid = "n/a"
        if v in med and v not in ("original", "nocomm", "isolate") and "original" in med and t_nocomm is not None \
                and med["original"] > t_nocomm:
            hid = "%.1f" % (100.0 * (med["original"] - med[v]) / (med["original"] - t_nocomm))
        if t:
            lines.append("| %s | %d/%d | %.2f | %.2f | %.2f | %s |" % (v, len(t), n_all, med[v], t[0], t[-1], hid))
        else:
            st = sorted(set(r["status"] for r in rows if r["variant"] == v))
            lines.append("| %s | 0/%d | - | - | - | %s |" % (v, n_all, "/".join(st)))
    if "original" in med and t_nocomm is not None:
        lines.append("")
        lines.append("T_nocomm from %s; communication share of original: %.1f%%"
                     % (base, 100.0 * (med["original"] - t_nocomm) / med["original"]))
        # As bench/harness: a gap under 5% of Original, or under twice the
        # summed median absolute deviations, is within the noise.
        def mad(v):
            t = [r["seconds"] for r in rows if r["variant"] == v and r["status"] == "ok"]
            m = statistics.median(t)
            return statistics.median(abs(x - m) for x in t)
        gap = med["original"] - t_nocomm
        noise = 2 * (mad("original") + mad(base))
        if gap < 0.05 * med["original"] or gap < noise:
            lines.append("hidden %% UNRELIABLE: T_original - T_nocomm = %.3f s is under 5%% of T_original "
                         "or under twice the summed MADs (%.3f s)" % (gap, noise))
        else:
            lines.append("T_original - T_nocomm = %.3f s; twice the summed MADs = %.3f s" % (gap, noise))
    nets = sorted(set(r["network"] for r in rows))
    lines.append("network: " + "; ".join(nets))
    lines.append("command: " + " ".join(sys.argv))
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text + "\n")
    print("output:", out)


if __name__ == "__main__":
    main()
