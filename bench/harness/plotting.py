"""The plotting end that the harness scripts share (run_bench.py, ablation.py,
tpod_sweep.py, advise_eval.py, trace_picture.py).

The scripts themselves need only the Python standard library; their PNG
plots use matplotlib: in the interpreter that runs them when it has it, else
in /usr/bin/python3 (Debian's python3-matplotlib, installed with apt-get
first when we are root and may), by running the script again there with
--replot OUT; else the script's fallback (hand-written SVG, or no plot).
"""

import os
import shutil
import subprocess
import sys

SYSTEM_PYTHON = "/usr/bin/python3"


def have_matplotlib():
    """Whether this interpreter can import matplotlib."""
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


def pyplot():
    """matplotlib.pyplot with the Agg backend (files only, no display)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, path, dpi=120):
    """Writes the figure to path and frees it."""
    fig.savefig(path, dpi=dpi)
    pyplot().close(fig)


def is_system_python():
    """Whether this interpreter is /usr/bin/python3 itself."""
    return os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON)


def system_matplotlib(install=True, warn=None):
    """Whether /usr/bin/python3 has matplotlib (Debian's python3-matplotlib).
    With install, when it is missing and we run as root, apt-get installs it
    first (warn(message) reports a failed install)."""
    syspy = SYSTEM_PYTHON

    def sys_has():
        return os.path.exists(syspy) and subprocess.run(
            [syspy, "-c", "import matplotlib"], capture_output=True).returncode == 0

    if install and not sys_has() and os.path.exists(syspy) and os.geteuid() == 0 and shutil.which("apt-get"):
        print("matplotlib is missing: apt-get install -y python3-matplotlib", flush=True)
        aenv = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        inst = ["apt-get", "install", "-y", "--no-install-recommends", "python3-matplotlib"]
        r = subprocess.run(inst, capture_output=True, text=True, env=aenv)
        if r.returncode != 0:  # stale package lists
            subprocess.run(["apt-get", "update"], capture_output=True, env=aenv)
            r = subprocess.run(inst, capture_output=True, text=True, env=aenv)
        if r.returncode != 0 and warn:
            warn("apt-get install python3-matplotlib failed:\n" + r.stderr[-2000:])
    return sys_has()


def plot(script, out, draw, warn, missing, fallback=None, install=True, here=True):
    """Draws the plots of the results in directory out and returns whether it
    did: draw(out) when this interpreter has matplotlib (and here), else
    `/usr/bin/python3 script --replot out` when that interpreter has it (see
    system_matplotlib for install), else warn(missing) and fallback(out), or
    False without a fallback. A failed replot also ends in the fallback, or
    in False without one."""
    if here and have_matplotlib():
        return draw(out)
    if system_matplotlib(install, warn):
        if is_system_python():
            return draw(out)
        if subprocess.run([SYSTEM_PYTHON, script, "--replot", out]).returncode == 0:
            return True
        if fallback is None:
            return False
    warn(missing)
    return fallback(out) if fallback else False
