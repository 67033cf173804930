#!/usr/bin/python3
"""trace_picture.py -- draw a Chrome-trace / Perfetto JSON file (as written by
`tucana-run --trace FILE`) as a core-usage timeline: one row per process and
worker, coloured spans per event name (receive, send, compute, idle,
mpi-progress, ...), a thin strip under each row for the subrank (fiber) that
ran, a legend, and a time axis in ms.  Also prints a utilization table.

    bench/harness/trace_picture.py trace.json                 # -> trace.png
    bench/harness/trace_picture.py trace.json -o out.png --from 10 --to 25

Input: {"traceEvents": [...], "displayTimeUnit": "ms"} or a bare list of
events.  Used: ph "X" (ts, dur), "B"/"E" pairs, "M" thread_name /
process_name / thread_sort_index; ts and dur in microseconds.  Missing or
malformed fields are tolerated (pid/tid default to 0, events without a time
are skipped and counted); a truncated file (a crashed run) is repaired when
possible.  Events with cat "subrank" or "fiber" (or a name "subrank N") make the subrank
strip; all others the main band, shorter events drawn over longer ones.

PNG output needs matplotlib (Debian: python3-matplotlib for /usr/bin/python3);
without it an SVG is written next to the requested name.  Standard library
otherwise.
"""

import argparse
import json
import os
import re
import subprocess
import sys

import plotting  # the harness's plotting end (this script's folder)

# Fixed colours for the names the runtime writes; others get palette colours.
KNOWN_COLORS = {
    "compute": "#2ca02c",
    "receive": "#1f77b4",
    "send": "#ff7f0e",
    "pack": "#9467bd",
    "unpack": "#8c564b",
    "idle": "#e0e0e0",
    "mpi-progress": "#d62728",
    "mpi": "#d62728",
    "task": "#17becf",
    "serial": "#bcbd22",
}
PALETTE = ["#17becf", "#bcbd22", "#e377c2", "#7f7f7f", "#aec7e8", "#ffbb78", "#98df8a",
           "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5", "#393b79",
           "#637939", "#8c6d31", "#843c39", "#7b4173"]
FIBER_COLORS = ["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#64b5cd",
                "#8c8c8c", "#e17c05"]
MAX_LEGEND = 14


# ------------------------------------------------------------------ reading

def load_events(path):
    """The list of events of a trace file; repairs a truncated file."""
    with open(path, "rb") as f:
        raw = f.read().decode("utf-8", errors="replace")
    data = None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        text = raw.rstrip().rstrip(",")
        for tail in ("", "]", "]}", "}]}", "}]"):
            try:
                data = json.loads(text + tail)
                print(f"trace_picture.py: {path}: truncated JSON repaired (appended {tail!r})",
                      file=sys.stderr)
                break
            except json.JSONDecodeError:
                continue
        if data is None:
            # last resort: cut back to the last complete event
            cut = text.rfind("}")
            while cut > 0 and data is None:
                for tail in ("]}", "]"):
                    try:
                        data = json.loads(text[:cut + 1] + tail)
                        print(f"trace_picture.py: {path}: truncated JSON, kept the complete events",
                              file=sys.stderr)
                        break
                    except json.JSONDecodeError:
                        continue
                cut = text.rfind("}", 0, cut)
    if data is None:
        sys.exit(f"trace_picture.py: {path}: not a JSON trace")
    if isinstance(data, dict):
        events = data.get("traceEvents", data.get("events", []))
    elif isinstance(data, list):
        events = data
    else:
        events = []
    return [e for e in events if isinstance(e, dict)]


def num(x, default=None):
    try:
        v = float(x)
    except (TypeError, ValueError):
        return default
    return v if v == v and v not in (float("inf"), float("-inf")) else default


def ident(x):
    """pid/tid as given (int or string); None -> 0."""
    if x is None:
        return 0
    if isinstance(x, (int, str)):
        return x
    v = num(x)
    return int(v) if v is not None else str(x)


class Trace:
    def __init__(self, events):
        self.spans = []          # (row, start_us, dur_us, name, cat, args)
        self.thread_names = {}   # (pid, tid) -> name
        self.process_names = {}  # pid -> name
        self.sort_index = {}     # (pid, tid) -> index
        self.skipped = 0
        open_b = {}              # (pid, tid) -> stack of (name, cat, ts, args)
        for e in events:
            ph = e.get("ph", "X")
            pid, tid = ident(e.get("pid")), ident(e.get("tid"))
            name = str(e.get("name", "") or "(unnamed)")
            args = e.get("args") if isinstance(e.get("args"), dict) else {}
            if ph == "M":
                if name == "thread_name" and "name" in args:
                    self.thread_names[(pid, tid)] = str(args["name"])
                elif name == "process_name" and "name" in args:
                    self.process_names[pid] = str(args["name"])
                elif name == "thread_sort_index":
                    v = num(args.get("sort_index"))
                    if v is not None:
                        self.sort_index[(pid, tid)] = v
                continue
            ts = num(e.get("ts"))
            cat = str(e.get("cat", "") or "")
            if ph == "X":
                dur = num(e.get("dur"), 0.0)
                if ts is None or dur < 0:
                    self.skipped += 1
                    continue
                self.spans.append(((pid, tid), ts, dur, name, cat, args))
            elif ph == "B":
                if ts is None:
                    self.skipped += 1
                    continue
                open_b.setdefault((pid, tid), []).append((name, cat, ts, args))
            elif ph == "E":
                stack = open_b.get((pid, tid))
                if ts is None or not stack:
                    self.skipped += 1
                    continue
                bname, bcat, bts, bargs = stack.pop()
                if ts >= bts:
                    self.spans.append(((pid, tid), bts, ts - bts, bname, bcat, bargs))
            else:
                # instant, counter, flow, async ... events: not drawn
                continue
        self.unclosed = sum(len(s) for s in open_b.values())
        if self.spans:
            self.t0 = min(s[1] for s in self.spans)
            self.t1 = max(s[1] + s[2] for s in self.spans)
        else:
            self.t0 = self.t1 = 0.0

    def rows(self):
        keys = sorted({s[0] for s in self.spans},
                      key=lambda k: (str(type(k[0])), k[0], self.sort_index.get(k, 0),
                                     str(type(k[1])), k[1]))
        return keys

    def row_label(self, key):
        pid, tid = key
        p = self.process_names.get(pid, f"process {pid}")
        t = self.thread_names.get(key, f"worker {tid}")
        return f"{p} / {t}"


def is_fiber(span):
    _, _, _, name, cat, _ = span
    return cat in ("fiber", "subrank") or re.match(r"^subrank \d+$", name) is not None


def fiber_id(span):
    args = span[5]
    v = args.get("subrank")
    if isinstance(v, (int, float)):
        return int(v)
    m = re.search(r"(\d+)", span[3])
    return int(m.group(1)) if m else 0


# --------------------------------------------------------------- analysis

def color_map(trace, spans):
    totals = {}
    for s in spans:
        if not is_fiber(s):
            totals[s[3]] = totals.get(s[3], 0.0) + s[2]
    names = sorted(totals, key=lambda n: -totals[n])
    colors, k = {}, 0
    for n in names:
        if n in KNOWN_COLORS:
            colors[n] = KNOWN_COLORS[n]
        else:
            colors[n] = PALETTE[k % len(PALETTE)]
            k += 1
    return colors, names, totals


def by_row(spans):
    rows = {}
    for s in spans:
        rows.setdefault(s[0], []).append(s)
    return rows


def clip(spans, lo, hi):
    out = []
    for key, ts, dur, name, cat, args in spans:
        a, b = max(ts, lo), min(ts + dur, hi)
        if b > a or (dur == 0 and lo <= ts <= hi):
            out.append((key, a, b - a, name, cat, args))
    return out


def utilization(trace, spans, lo, hi):
    """Per row: total time per event name (top-level coverage is not
    computed: nested spans count for each name they carry)."""
    table = {}
    for s in spans:
        if is_fiber(s):
            continue
        row = table.setdefault(s[0], {})
        row[s[3]] = row.get(s[3], 0.0) + s[2]
    span = (hi - lo) or 1.0
    lines = []
    names = sorted({n for r in table.values() for n in r})
    head = f"{'row':32s}" + "".join(f"{n[:12]:>13s}" for n in names)
    lines.append("utilization (% of the window per event name; nested spans count for each name)")
    lines.append(head)
    for key in trace.rows():
        r = table.get(key, {})
        lines.append(f"{trace.row_label(key)[:32]:32s}" +
                     "".join(f"{100.0 * r.get(n, 0.0) / span:12.1f}%" for n in names))
    return "\n".join(lines)


# ----------------------------------------------------------------- drawing

def draw_matplotlib(trace, spans, lo, hi, out, title):
    plt = plotting.pyplot()
    from matplotlib.patches import Patch

    rows = trace.rows()
    colors, names, totals = color_map(trace, spans)
    height = max(2.5, 0.45 * len(rows) + 1.6)
    fig, ax = plt.subplots(figsize=(12, height))
    ms = lambda us: (us - lo) / 1000.0  # noqa: E731
    fibers_seen = False
    grouped = by_row(spans)
    for i, key in enumerate(rows):
        y = len(rows) - 1 - i
        mine = grouped.get(key, [])
        main = sorted((s for s in mine if not is_fiber(s)), key=lambda s: -s[2])
        fib = [s for s in mine if is_fiber(s)]
        # main band: group by name, longer spans first so inner ones show on top
        by_name = {}
        order = []
        for s in main:
            if s[3] not in by_name:
                order.append(s[3])
            by_name.setdefault(s[3], []).append((ms(s[1]), max(s[2] / 1000.0, 1e-6)))
        # draw in order of decreasing typical length, so nested names are on top
        order.sort(key=lambda n: -max(d for _, d in by_name[n]))
        for n in order:
            ax.broken_barh(by_name[n], (y + 0.22, 0.68), facecolors=colors[n], linewidth=0)
        if fib:
            fibers_seen = True
            by_f = {}
            for s in fib:
                by_f.setdefault(fiber_id(s), []).append((ms(s[1]), max(s[2] / 1000.0, 1e-6)))
            for f, bars in by_f.items():
                ax.broken_barh(bars, (y + 0.02, 0.16), facecolors=FIBER_COLORS[f % len(FIBER_COLORS)],
                               linewidth=0)
                # label wide fiber spans with the subrank number
                for x, w in bars:
                    if w > (hi - lo) / 1000.0 / 40:
                        ax.text(x + w / 2, y + 0.1, str(f), ha="center", va="center", fontsize=6,
                                color="white")
    ax.set_yticks([len(rows) - 1 - i + 0.5 for i in range(len(rows))])
    ax.set_yticklabels([trace.row_label(k) for k in rows], fontsize=8)
    ax.set_ylim(0, len(rows))
    ax.set_xlim(0, (hi - lo) / 1000.0)
    ax.set_xlabel("time (ms)" + (f" from {(lo - trace.t0) / 1000.0:.3f} ms" if lo > trace.t0 else ""))
    ax.grid(axis="x", alpha=0.3)
    shown = names[:MAX_LEGEND]
    handles = [Patch(facecolor=colors[n], label=n) for n in shown]
    if len(names) > MAX_LEGEND:
        handles.append(Patch(facecolor="white", edgecolor="black",
                             label=f"(+{len(names) - MAX_LEGEND} more names)"))
    if fibers_seen:
        handles.append(Patch(facecolor=FIBER_COLORS[0], label="running subrank (thin strip)"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              frameon=False)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    plotting.save(fig, out, dpi=130)


def _esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw_svg(trace, spans, lo, hi, out, title):
    rows = trace.rows()
    colors, names, totals = color_map(trace, spans)
    left, right, top, rh = 220, 170, 40, 28
    width = 1200
    plot_w = width - left - right
    height = top + rh * len(rows) + 50
    span = (hi - lo) or 1.0
    X = lambda us: left + plot_w * (us - lo) / span  # noqa: E731
    p = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>',
         f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="13">{_esc(title)}</text>']
    grouped = by_row(spans)
    for i, key in enumerate(rows):
        y = top + i * rh
        p.append(f'<text x="{left - 6}" y="{y + rh / 2 + 4}" text-anchor="end" font-size="10">'
                 f'{_esc(trace.row_label(key))}</text>')
        mine = sorted(grouped.get(key, []), key=lambda s: -s[2])
        for s in mine:
            x0, x1 = X(s[1]), X(s[1] + s[2])
            w = max(x1 - x0, 0.3)
            if is_fiber(s):
                c = FIBER_COLORS[fiber_id(s) % len(FIBER_COLORS)]
                p.append(f'<rect x="{x0:.2f}" y="{y + rh - 6}" width="{w:.2f}" height="4" fill="{c}"/>')
            else:
                p.append(f'<rect x="{x0:.2f}" y="{y + 3}" width="{w:.2f}" height="{rh - 11}" '
                         f'fill="{colors[s[3]]}"/>')
    yb = top + rh * len(rows)
    p.append(f'<line x1="{left}" y1="{yb}" x2="{left + plot_w}" y2="{yb}" stroke="black"/>')
    for k in range(11):
        x = left + plot_w * k / 10
        p.append(f'<line x1="{x}" y1="{yb}" x2="{x}" y2="{yb + 4}" stroke="black"/>')
        p.append(f'<text x="{x}" y="{yb + 16}" text-anchor="middle" font-size="10">'
                 f'{span / 1000.0 * k / 10:.3g}</text>')
    p.append(f'<text x="{left + plot_w / 2}" y="{yb + 32}" text-anchor="middle" font-size="11">time (ms)</text>')
    for k, n in enumerate(names[:MAX_LEGEND]):
        y = top + 14 * k
        p.append(f'<rect x="{left + plot_w + 10}" y="{y}" width="10" height="10" fill="{colors[n]}"/>')
        p.append(f'<text x="{left + plot_w + 24}" y="{y + 9}" font-size="10">{_esc(n)}</text>')
    p.append("</svg>\n")
    with open(out, "w") as f:
        f.write("".join(p))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("trace", help="Chrome trace / Perfetto JSON file")
    ap.add_argument("-o", "--output", help="PNG file (default: the trace's name with .png)")
    ap.add_argument("--from", dest="t_from", type=float, help="window start, ms from the first event")
    ap.add_argument("--to", dest="t_to", type=float, help="window end, ms from the first event")
    ap.add_argument("--title", help="title (default: the file name and the window)")
    ap.add_argument("--svg", action="store_true", help="write SVG (no matplotlib needed)")
    ap.add_argument("--quiet", action="store_true", help="no utilization table")
    opts = ap.parse_args(argv)

    out = opts.output or os.path.splitext(opts.trace)[0] + (".svg" if opts.svg else ".png")
    if not opts.svg and out.endswith(".png") and not plotting.have_matplotlib():
        if not plotting.is_system_python() and plotting.system_matplotlib(install=False):
            return subprocess.run([plotting.SYSTEM_PYTHON, os.path.abspath(__file__)] + argv).returncode
        out = os.path.splitext(out)[0] + ".svg"
        print("trace_picture.py: matplotlib is not available (Debian: apt-get install "
              f"python3-matplotlib): writing {out} instead", file=sys.stderr)
        opts.svg = True
    if out.endswith(".svg"):
        opts.svg = True

    trace = Trace(load_events(opts.trace))
    if not trace.spans:
        sys.exit(f"trace_picture.py: {opts.trace}: no complete events (ph X, or B/E pairs) to draw")
    lo = trace.t0 + (opts.t_from * 1000.0 if opts.t_from is not None else 0.0)
    hi = trace.t0 + opts.t_to * 1000.0 if opts.t_to is not None else trace.t1
    if hi <= lo:
        sys.exit("trace_picture.py: empty window (--from must be below --to and the trace's end)")
    spans = clip(trace.spans, lo, hi)
    title = opts.title or (f"{os.path.basename(opts.trace)}: {len(trace.rows())} rows, "
                           f"{(hi - lo) / 1000.0:.3f} ms")
    if opts.svg:
        draw_svg(trace, spans, lo, hi, out, title)
    else:
        draw_matplotlib(trace, spans, lo, hi, out, title)
    notes = []
    if trace.skipped:
        notes.append(f"{trace.skipped} events without a usable time skipped")
    if trace.unclosed:
        notes.append(f"{trace.unclosed} 'B' events never closed")
    print(f"wrote {out}" + (f" ({'; '.join(notes)})" if notes else ""))
    if not opts.quiet:
        print(utilization(trace, spans, lo, hi))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
