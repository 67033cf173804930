#!/usr/bin/python3
"""A stand-in for tucana-advise in test_advise_eval.py: the CLI of issue 16
with canned answers.

  calibrate [--name N] -o FILE -- ...     writes a calibration, runs nothing
  profile -o P -- CMD...                  runs CMD (the real program), writes P
  report P ... --json                     prints data/advise/report_NAME.json,
                                          NAME = the directory of P
  check FILE.c --json -- FLAGS            prints data/advise/check_NAME.json
  rewrite --mpi|--tucana FILE.c -o OUT    copies FILE.c to OUT
                                          (FAKE_ADVISE_FAIL_REWRITE=1: fails)
Every call is appended to $FAKE_ADVISE_LOG (one JSON list of argv a line).
"""

import json
import os
import shutil
import subprocess
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "advise")


def opt(argv, name):
    return argv[argv.index(name) + 1] if name in argv else None


def main(argv):
    if os.environ.get("FAKE_ADVISE_LOG"):
        with open(os.environ["FAKE_ADVISE_LOG"], "a") as f:
            f.write(json.dumps(argv) + "\n")
    cmd, rest = argv[0], argv[1:]
    before = rest[:rest.index("--")] if "--" in rest else rest
    after = rest[rest.index("--") + 1:] if "--" in rest else []
    if cmd == "calibrate":
        with open(opt(before, "-o"), "w") as f:
            json.dump({"alpha_s": 5e-5, "beta_s_per_byte": 1e-8, "name": opt(before, "--name")}, f)
        return 0
    if cmd == "profile":
        rc = subprocess.run(after).returncode
        with open(opt(before, "-o"), "w") as f:
            json.dump({"per_rank": [{"sites": []}], "command": after}, f)
        return rc
    if cmd == "report":
        name = os.path.basename(os.path.dirname(os.path.abspath(before[0])))
    elif cmd == "check":
        name = os.path.splitext(os.path.basename(before[0]))[0]
    elif cmd == "rewrite":
        if os.environ.get("FAKE_ADVISE_FAIL_REWRITE"):
            print("tucana-advise: rewrite: cannot do this (fake)", file=sys.stderr)
            return 1
        src = [a for a in before if a.endswith(".c")][0]
        shutil.copyfile(src, opt(before, "-o"))
        if os.environ.get("FAKE_ADVISE_NOTHING_REWRITTEN"):
            print(f"{src}:1:1: note: loop over 'it': not rewritten: MPI_X at line 1: Before or After calls X")
            return 0
        # the real tool's note for each loop it transformed
        done = "pipelined MPI_X" if "--mpi" in before else "annotated for Tucana: MPI_X"
        print(f"{src}:1:1: note: loop over 'it': {done} at line 1 (fake)")
        return 0
    else:
        print(f"fake tucana-advise: unknown command {cmd}", file=sys.stderr)
        return 2
    path = os.path.join(DATA, f"{cmd}_{name}.json")
    if not os.path.exists(path):
        print(f"fake tucana-advise: no {path}", file=sys.stderr)
        return 1
    with open(path) as f:
        sys.stdout.write(f.read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
