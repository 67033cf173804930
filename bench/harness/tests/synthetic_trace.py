#!/usr/bin/python3
"""synthetic_trace.py OUT.json [--truncate]: writes a small trace in the format
of `tucana-run --trace` (2 processes x 2 workers, 4 subranks per worker, 6
iterations of receive / send / compute regions inside fiber spans, idle gaps,
mpi-progress on worker 0) plus a few malformed events that trace_picture.py
must tolerate.  --truncate cuts the file in the middle (a crashed run)."""
import json
import random
import sys

random.seed(7)
ev = []
for pid in range(2):
    ev.append({"ph": "M", "name": "process_name", "pid": pid, "args": {"name": f"process {pid}"}})
    for tid in range(2):
        ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                   "args": {"name": f"worker {tid}"}})
        t = 100.0 + 30 * tid
        subs = [pid * 8 + tid * 4 + k for k in range(4)]
        for it in range(6):
            for sr in subs:
                start = t
                for name, dur in (("receive", 15), ("send", 40), ("compute", 300 + random.random() * 80)):
                    ev.append({"name": name, "cat": "region", "ph": "X", "ts": t, "dur": dur,
                               "pid": pid, "tid": tid, "args": {"subrank": sr, "iteration": it}})
                    t += dur + 2
                ev.append({"name": f"subrank {sr}", "cat": "fiber", "ph": "X", "ts": start,
                           "dur": t - start, "pid": pid, "tid": tid, "args": {"subrank": sr}})
                if tid == 0 and random.random() < 0.5:
                    ev.append({"name": "mpi-progress", "cat": "mpi", "ph": "X", "ts": t, "dur": 25,
                               "pid": pid, "tid": tid})
                    t += 27
            gap = 120 if pid == 1 else 40  # process 1 waits longer for its messages
            ev.append({"name": "idle", "cat": "idle", "ph": "X", "ts": t, "dur": gap, "pid": pid, "tid": tid})
            t += gap
# B/E pair, and malformed events: no pid/tid, no dur, string ts, no ts, negative dur, unknown ph
ev.append({"name": "pack", "cat": "region", "ph": "B", "ts": 150.0, "pid": 1, "tid": 1})
ev.append({"ph": "E", "ts": 180.0, "pid": 1, "tid": 1})
ev.append({"name": "unpack", "ph": "X", "ts": "200.5", "dur": "30"})        # pid/tid missing -> 0/0
ev.append({"name": "compute", "ph": "X", "ts": 400})                        # no dur -> 0
ev.append({"name": "broken", "ph": "X", "dur": 10, "pid": 0, "tid": 0})     # no ts: skipped
ev.append({"name": "negative", "ph": "X", "ts": 10, "dur": -5})             # skipped
ev.append({"name": "marker", "ph": "i", "ts": 500, "pid": 0, "tid": 0})     # instant: ignored
ev.append({"ph": "E", "ts": 999, "pid": 5, "tid": 5})                       # E without B: skipped
ev.append("not an event")
text = json.dumps({"traceEvents": ev, "displayTimeUnit": "ms"}, indent=0)
if "--truncate" in sys.argv:
    text = text[: int(len(text) * 0.6)]
with open(sys.argv[1], "w") as f:
    f.write(text)
print(f"wrote {sys.argv[1]}: {len(ev)} events" + (" (truncated)" if "--truncate" in sys.argv else ""))
