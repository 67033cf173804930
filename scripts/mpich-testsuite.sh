#!/usr/bin/env bash
# Builds MPICH's own test suite (test/mpi of the MPICH sources) natively with
# Open MPI's mpicc and with Tucana's tucanacc, runs it with MPICH's runtests,
# and reports per-test pass/fail and per-folder counts.
#
# Usage: scripts/mpich-testsuite.sh --mpich-src DIR --work DIR [options]
#   --mpich-src DIR   MPICH source tree (git checkout or release tarball) with
#                     test/mpi and confdb (a checkout also needs maint/version.m4)
#   --work DIR        where the sources are copied, built and run (outside the
#                     project); results land in DIR/results-<layout>.tsv
#   --dirs LIST       test folders, comma separated (default: pt2pt,coll,comm,
#                     datatype,group,topo,init,attr,errhan,info,rma,io,session)
#   --build B         native | tucana | both (default: what --layout needs,
#                     or both)
#   --layout L        native | shared | single, or a comma list (default:
#                     native for the native build, shared,single for tucana)
#                       native: mpirun --oversubscribe -np N ./prog args
#                       shared: tucana-run -np P --vranks N ./prog args
#                               (P = 2 when N >= 2, else 1)
#                       single: tucana-run -np N --vf 1 ./prog args
#   --tests REGEX     run only the tests whose "folder/name args" matches
#                     (grep -E style, Python re); their rows replace the old
#                     ones in the results, the others are kept
#   --timeout S       per-test limit in seconds for tests without a timeLimit
#                     of their own (default 60; MPITEST_TIMEOUT for runtests)
#   --max-timeout S   cap on any test's limit, timeLimit= included (default 300)
#   --relink          delete the tucana build's test executables (the .o files
#                     stay) so that make relinks them against a changed runtime
#                     (with --tests: only those of the matching tests)
#   --summary-only    redo the results of each layout's last run from its saved
#                     outputs, print the summary and exit (no build, no run)
#
# How it is done (and why):
#   * MPICH's test/mpi/autogen.sh expects to sit inside a full MPICH tree: it
#     refuses to run without test/mpi/confdb (or MPICH_CONFDB) and copies
#     version.m4 and dtpools/confdb from ../../maint and ../../confdb.  The
#     smallest working route is to copy test/mpi to WORK/src/mpi and put
#     confdb into WORK/src/mpi/confdb and WORK/src/mpi/dtpools/confdb and
#     maint/version.m4 into WORK/src/mpi/version.m4; autogen (autoconf,
#     automake, libtool, python3) then works with nothing else of MPICH.  A
#     release tarball ships test/mpi/configure already: autogen is skipped.
#   * configure: C only, strict MPI (Open MPI is not MPICH: no MPIX tests),
#     no Fortran/C++/threads/spawn/ft/GPU tests, no maintainer mode (so make
#     never reruns autotools), and --disable-shared so that libtool links real
#     executables instead of wrapper scripts (tucana-run checks the ELF for
#     Tucana's runtime).  MPICC must be set too: configure otherwise finds
#     mpicc in PATH and replaces CC with it.
#   * Each folder is built with make -k; a program that does not compile is
#     reported as NOBUILD by runtests (which runs "make prog" per test).
#   * runtests runs each folder's testlist (pass = exit 0 and " No Errors"
#     with no stray output), with this script as -mpiexec (the wrapper mode
#     below), MPITEST_RUN_INDIVIDUAL=1 (one mpiexec per test, not MPICH's
#     run_mpitests batch) and -strict (skip strict=false tests).  To tie each
#     runtests verdict to its testlist line, the harness runs a copy of each
#     testlist (testlist.harness-<layout>) whose lines carry one more
#     env=HARNESS_TEST_ID=<folder>:<line>; the wrapper saves each test's
#     output under WORK/run-<layout>/out, runtests' JUnit file gives the verdict.
#   * runtests only passes the limit on (MPIEXEC_TIMEOUT); the wrapper
#     enforces it with timeout(1) in a session of its own and kills what is
#     left of that session afterwards, so a deadlock cannot stall the run.
#
# Exit status: 0 when the harness worked (even if tests failed: it is a
# report), non-zero when it could not build or run the suite.
#
# Example:
#   scripts/mpich-testsuite.sh --mpich-src /work/mpich-src --work /work/mpich-suite
#   scripts/mpich-testsuite.sh --mpich-src /work/mpich-src --work /work/mpich-suite \
#       --build tucana --relink --tests '^pt2pt/(mprobe|big_count)'
set -euo pipefail

self=$(realpath "${BASH_SOURCE[0]}")
script_dir=$(dirname "$self")
tucana_bin=$(realpath -m "$script_dir/../build/bin")

# Open MPI refuses to run as root unless told that it is wanted.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

die() { echo "mpich-testsuite: error: $*" >&2; exit 1; }
note() { echo "mpich-testsuite: $*"; }

# ---------------------------------------------------------------------------
# Wrapper mode: runtests calls "<this script> --mpiexec-wrapper LAYOUT -n N
# [launcher args] ./prog [args]" for every test.
mpiexec_wrapper() {
  local layout=$1
  shift
  [ "${1:-}" = -n ] || { echo "mpiexec wrapper: expected -n N, got '$*'" >&2; exit 2; }
  local np=$2
  shift 2
  local extra=()
  while [ $# -gt 0 ] && [[ $1 != ./* ]]; do extra+=("$1"); shift; done
  [ $# -gt 0 ] || { echo "mpiexec wrapper: no program" >&2; exit 2; }
  local prog=$1
  shift

  local cmd=() a
  case "$layout" in
    native) cmd=(mpirun --oversubscribe "${extra[@]}" -np "$np" "$prog" "$@") ;;
    shared | single)
      local p=$np vf=(--vf 1)
      if [ "$layout" = shared ]; then
        p=1; [ "$np" -ge 2 ] && p=2
        vf=(--vranks "$np")
      fi
      cmd=("$tucana_bin/tucana-run" -np "$p" "${vf[@]}")
      for a in "${extra[@]}"; do cmd+=(--mpirun-arg "$a"); done
      cmd+=("$prog" "$@")
      ;;
    *) echo "mpiexec wrapper: unknown layout '$layout'" >&2; exit 2 ;;
  esac

  # The test's own limit (runtests exports it), capped.
  local limit=${MPIEXEC_TIMEOUT:-${HARNESS_TIMEOUT:-60}}
  limit=${limit%.*}
  local cap=${HARNESS_MAX_TIMEOUT:-300}
  [ "$limit" -gt "$cap" ] && limit=$cap

  local base
  if [ -n "${HARNESS_OUT_DIR:-}" ] && [ -n "${HARNESS_TEST_ID:-}" ]; then
    base=$HARNESS_OUT_DIR/${HARNESS_TEST_ID/://}
    mkdir -p "$(dirname "$base")"
  else
    base=$(mktemp -u /tmp/mpich-testsuite.XXXXXX)
  fi
  printf '(cd %q && %s)\n' "$PWD" "${cmd[*]}" >"$base.cmd"

  # A session of its own, so that whatever the launcher leaves behind
  # (a timed-out job's processes) can be found and killed by pid afterwards.
  local start rc=0 sid
  start=$(date +%s)
  # shellcheck disable=SC2016 # $$ and $1 belong to the inner bash
  setsid --wait bash -c 'echo $$ >"$1.sid"; shift; exec "$@"' _ "$base" \
    timeout --kill-after=10 "$limit" "${cmd[@]}" >"$base.out" 2>&1 </dev/null || rc=$?
  local secs=$(($(date +%s) - start))
  sid=$(cat "$base.sid" 2>/dev/null || true)
  rm -f "$base.sid"
  # (never our own session: that would be runtests and the harness)
  if [ -n "$sid" ] && [ "$sid" != "$(ps -o sid= -p $$ | tr -d ' ')" ]; then
    local pid s
    while read -r pid s; do
      if [ "$s" = "$sid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
    done < <(ps -e -o pid=,sid=)
  fi
  local timedout=0
  if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "$secs" -ge "$limit" ]; }; then
    timedout=1
    echo "mpich-testsuite: TIMEOUT: killed after ${limit} s" >>"$base.out"
  fi
  echo "$rc $secs $timedout $limit" >"$base.rc"
  cat "$base.out"
  exit "$rc"
}

if [ "${1:-}" = --mpiexec-wrapper ]; then
  shift
  mpiexec_wrapper "$@"
fi

# ---------------------------------------------------------------------------
# Python (stdlib) helpers: testlist filtering, collation of the results, summary.
harness_py() {
  python3 - "$@" <<'PY'
import os, re, sys, glob

FOLDERS_ORDER = []

def read_tsv(path):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith('#') or not line.strip():
                    continue
                rows.append(line.rstrip('\n').split('\t'))
    return rows

def clean(s):
    return re.sub(r'[\t\r\n]+', ' ', s).strip()

def genlists(builddir, srcdir, folders, regex, listname, manifest):
    """Write DIR/<listname> beside each testlist: the lines that match,
    each tagged env=HARNESS_TEST_ID=<dir>:<line>.  Append to the manifest."""
    rx = re.compile(regex) if regex else None
    out = []
    def one(reldir, top):
        path = os.path.join(builddir, reldir, 'testlist')
        if not (os.path.isfile(path) and os.path.getsize(path) > 0):
            path = os.path.join(srcdir, reldir, 'testlist')
        if not os.path.isfile(path):
            sys.exit('no testlist in %s (neither build nor source tree)' % reldir)
        kept = []
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                line = re.sub(r'#.*', '', line).strip()
                if not line:
                    continue
                if line.startswith('!'):          # !dir:target: a make to run first
                    kept.append(line)
                    continue
                tok = line.split()
                name = tok[0]
                if os.path.isdir(os.path.join(builddir, reldir, name)) or \
                   os.path.isdir(os.path.join(srcdir, reldir, name)):
                    one(os.path.join(reldir, name), top)   # runtests recurses too
                    kept.append(line)
                    continue
                np_ = tok[1] if len(tok) > 1 else '2'
                args = [t[4:] for t in tok[2:] if t.startswith('arg=')]
                envs = [t[4:] for t in tok[2:] if t.startswith('env=')]
                key = '%s/%s' % (reldir, name) + (' ' + ' '.join(args) if args else '')
                if rx and not rx.search(key):
                    continue
                tid = '%s:%d' % (reldir, lineno)
                kept.append('%s env=HARNESS_TEST_ID=%s' % (line, tid))
                argdesc = ' '.join(args + ['env:' + e for e in envs])
                out.append([tid, top, reldir, name, np_, argdesc])
        if listname != '-':
            os.makedirs(os.path.join(builddir, reldir), exist_ok=True)
            with open(os.path.join(builddir, reldir, listname), 'w') as f:
                f.write(''.join(l + '\n' for l in kept))
    for top in folders:
        one(top, top)
    if manifest == '-':                 # just the matching programs
        for r in sorted({os.path.join(r[2], r[3]) for r in out}):
            print(r)
        return
    with open(manifest, 'a') as f:
        for r in out:
            f.write('\t'.join(r) + '\n')
    print(len(out))

def first_line(text):
    """The first line that says something: not blank, not a ruler, not No Errors."""
    for l in text.splitlines():
        s = l.strip()
        if not s or re.fullmatch(r'[-=*_#\s]+', s) or re.fullmatch(r'No [Ee]rrors', s):
            continue
        return clean(s)[:300]
    return ''

def collate(manifest, junitdir, outdir, results, regex_used, folders):
    man = read_tsv(manifest)
    verdict = {}                      # id -> (status, runtests output)
    for jf in sorted(glob.glob(os.path.join(junitdir, 'junit-*.xml'))):
        lines = open(jf, errors='replace').read().splitlines()
        for i, l in enumerate(lines):
            if '<testcase ' not in l:
                continue
            m = re.search(r'HARNESS_TEST_ID=([^"\s]+)', l)
            if not m:
                continue
            tid = m.group(1)
            if l.rstrip().endswith('></testcase>'):
                verdict[tid] = ('PASS', '')
                continue
            nxt = lines[i + 1] if i + 1 < len(lines) else ''
            body = []
            for l2 in lines[i + 1:]:
                if l2.startswith('## ') and not l2.startswith("## Test output (expected"):
                    body.append(l2[3:])
                elif '</testcase>' in l2:
                    break
            if '<skipped type="TodoTestSkipped"' in nxt:
                m2 = re.search(r'message="([^"]*)', lines[i + 2] if i + 2 < len(lines) else '')
                verdict[tid] = ('SKIP', clean(m2.group(1)) if m2 else 'skipped by runtests')
            else:
                verdict[tid] = ('FAIL', '\n'.join(body))
    new = {}
    for tid, top, reldir, name, np_, args in man:
        st, msg, secs = 'NOTRUN', 'not run (runtests stopped or did not list it)', ''
        if tid in verdict:
            st, body = verdict[tid]
            msg = body if st == 'SKIP' else ''
            base = os.path.join(outdir, tid.replace(':', '/'))
            rec = None
            if os.path.exists(base + '.rc'):
                rec = open(base + '.rc').read().split()
                secs = rec[1]
            out = open(base + '.out', errors='replace').read() if os.path.exists(base + '.out') else ''
            if st == 'FAIL' and re.match(r'\s*Failed to build', body):
                st = 'NOBUILD'
                errs = [l for l in body.splitlines() if re.search(r'error|undefined reference', l)]
                msg = clean(errs[0] if errs else first_line(body))[:300]
            elif rec and rec[2] == '1':
                st = 'TIMEOUT'
                fl = first_line(re.sub(r'mpich-testsuite: TIMEOUT.*', '', out))
                msg = 'timed out after %s s' % rec[3] + ('; first output: ' + fl if fl else '')
            elif st == 'FAIL':
                fl = first_line(out if rec else body)
                rc = rec[0] if rec else '?'
                msg = '[rc=%s] %s' % (rc, fl or ('no output' if rc != '0' else 'no "No Errors"'))
        new[tid] = [top, name, np_, args, st, msg, tid, secs]
    old = read_tsv(results)
    merged = {}
    for r in old:
        if len(r) < 8:
            continue
        # a full (unfiltered) run of a folder drops that folder's old rows
        if not regex_used and r[0] in folders and r[6] not in new:
            continue
        merged[r[6]] = r
    merged.update(new)
    def order(r):
        d, _, ln = r[6].rpartition(':')
        return (d, int(ln) if ln.isdigit() else 0)
    with open(results, 'w') as f:
        f.write('#folder\ttest\tnp\targs\tstatus\tfirst_failure_line\tid\tseconds\n')
        for r in sorted(merged.values(), key=order):
            f.write('\t'.join(r) + '\n')
    counts = {}
    for r in new.values():
        counts[r[4]] = counts.get(r[4], 0) + 1
    print('  ' + ', '.join('%s %d' % kv for kv in sorted(counts.items())))

def summary(work, layouts_s, out_txt):
    layouts = layouts_s.split(',')
    res = {lay: {r[6]: r for r in read_tsv(os.path.join(work, 'results-%s.tsv' % lay)) if len(r) >= 8}
           for lay in layouts}
    res = {k: v for k, v in res.items() if v}
    lines = []
    p = lines.append
    if not res:
        p('no results yet under %s' % work)
    else:
        ids = {}
        for lay, rows in res.items():
            for tid, r in rows.items():
                ids.setdefault(tid, r)
        folders = []
        for r in ids.values():
            if r[0] not in folders:
                folders.append(r[0])
        folders.sort()
        cols = [l for l in ('native', 'shared', 'single') if l in res]
        p('%-10s %6s %6s ' % ('folder', 'listed', 'skip') + ' '.join('%7s' % c for c in cols))
        tot = [0, 0] + [0] * len(cols)
        for fo in folders:
            fids = [t for t, r in ids.items() if r[0] == fo]
            skip = sum(1 for t in fids if any(res[c].get(t, [''] * 5)[4] == 'SKIP' for c in cols))
            row = [len(fids), skip] + [sum(1 for t in fids if res[c].get(t, [''] * 5)[4] == 'PASS') for c in cols]
            tot = [a + b for a, b in zip(tot, row)]
            p('%-10s %6d %6d ' % (fo, row[0], row[1]) + ' '.join('%7d' % v for v in row[2:]))
        p('%-10s %6d %6d ' % ('total', tot[0], tot[1]) + ' '.join('%7d' % v for v in tot[2:]))
        for c in cols:
            st = {}
            for r in res[c].values():
                st[r[4]] = st.get(r[4], 0) + 1
            p('  %s: %s' % (c, ', '.join('%s %d' % kv for kv in sorted(st.items()))))
        if 'native' in res and ('shared' in res or 'single' in res):
            p('')
            p('Pass natively, fail under tucana (shared / single):')
            n = 0
            for tid in sorted(ids, key=lambda t: (t.rpartition(':')[0], int(t.rpartition(':')[2]))):
                nr = res['native'].get(tid)
                if not nr or nr[4] != 'PASS':
                    continue
                tl = [(c, res[c].get(tid)) for c in ('shared', 'single') if c in res]
                bad = [(c, r) for c, r in tl if r and r[4] not in ('PASS', 'SKIP')]
                if not bad:
                    continue
                n += 1
                r0 = ids[tid]
                p('  %s/%s np=%s%s  [%s]' % (r0[0], r0[1], r0[2], (' ' + r0[3]) if r0[3] else '',
                   ' / '.join('%s %s' % (c, r[4] if r else '-') for c, r in tl)))
                for c, r in bad:
                    p('      %-6s %s' % (c, r[5]))
            p('  (%d tests)' % n)
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    with open(out_txt, 'w') as f:
        f.write(text)

cmd = sys.argv[1]
if cmd == 'genlists':
    genlists(sys.argv[2], sys.argv[3], sys.argv[4].split(','), sys.argv[5], sys.argv[6], sys.argv[7])
elif cmd == 'collate':
    collate(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6] == '1', sys.argv[7].split(','))
elif cmd == 'summary':
    summary(sys.argv[2], sys.argv[3], sys.argv[4])
PY
}

# recollate LAYOUT: (re)build results-LAYOUT.tsv from the layout's last run
# (its manifest, JUnit files and saved outputs); idempotent.
recollate() {
  local rdir=$work/run-$1 regex_used cdirs
  [ -f "$rdir/collate.args" ] || return 0
  read -r regex_used cdirs <"$rdir/collate.args"
  harness_py collate "$rdir/manifest.tsv" "$rdir/junit-last" "$rdir/out" \
    "$work/results-$1.tsv" "$regex_used" "$cdirs"
}

# ---------------------------------------------------------------------------
# Options
mpich_src="" work="" dirs="pt2pt,coll,comm,datatype,group,topo,init,attr,errhan,info,rma,io,session"
build="" layouts="" tests="" timeout=60 max_timeout=300 relink=0 summary_only=0
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --mpich-src) need "$@"; mpich_src=$2; shift 2 ;;
    --work) need "$@"; work=$2; shift 2 ;;
    --dirs) need "$@"; dirs=$2; shift 2 ;;
    --build) need "$@"; build=$2; shift 2 ;;
    --layout) need "$@"; layouts=$2; shift 2 ;;
    --tests) need "$@"; tests=$2; shift 2 ;;
    --timeout) need "$@"; timeout=$2; shift 2 ;;
    --max-timeout) need "$@"; max_timeout=$2; shift 2 ;;
    --relink) relink=1; shift ;;
    --summary-only) summary_only=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

[ -n "$work" ] || die "--work DIR is required"
mkdir -p "$work"
work=$(realpath "$work")
command -v python3 >/dev/null || die "python3 is needed"

if [ "$summary_only" = 1 ]; then
  for l in native shared single; do recollate "$l"; done
  harness_py summary "$work" native,shared,single "$work/summary.txt"
  exit 0
fi

[ -n "$mpich_src" ] || die "--mpich-src DIR is required"
[ -d "$mpich_src/test/mpi" ] || die "'$mpich_src' has no test/mpi: give an MPICH source tree"
mpich_src=$(realpath "$mpich_src")
case "$mpich_src/" in
  "$work/src/"*) die "--mpich-src must not lie under WORK/src (the harness rewrites that)" ;;
esac
if ! [[ $timeout =~ ^[0-9]+$ && $max_timeout =~ ^[0-9]+$ ]]; then
  die "--timeout/--max-timeout take whole seconds"
fi
if [ -n "$tests" ]; then
  python3 -c 'import re,sys; re.compile(sys.argv[1])' "$tests" 2>/dev/null || die "--tests: bad regex '$tests'"
fi

# Which layouts, which builds: each defaults from the other.
case "${build:-}" in
  "" | native | tucana | both) ;;
  *) die "--build must be native, tucana or both" ;;
esac
if [ -z "$layouts" ]; then
  case "${build:-both}" in
    native) layouts=native ;;
    tucana) layouts=shared,single ;;
    both) layouts=native,shared,single ;;
  esac
fi
IFS=, read -r -a layout_list <<<"$layouts"
want_native=0 want_tucana=0
for l in "${layout_list[@]}"; do
  case "$l" in
    native) want_native=1 ;;
    shared | single) want_tucana=1 ;;
    *) die "unknown layout '$l' (native, shared or single)" ;;
  esac
done
[ "$build" = tucana ] && [ "$want_native" = 1 ] && die "layout native needs the native build (--build native or both)"
[ "$build" = native ] && [ "$want_tucana" = 1 ] && die "layouts shared and single need the tucana build (--build tucana or both)"
case "$build" in
  native) want_native=1 ;;
  tucana) want_tucana=1 ;;
  both) want_native=1 want_tucana=1 ;;
esac

if [ "$want_tucana" = 1 ]; then
  for t in tucanacc tucana-run; do
    [ -x "$tucana_bin/$t" ] || die "$tucana_bin/$t is missing: build the project first (cmake --build build)"
  done
fi
if [ "$want_native" = 1 ]; then
  for t in mpicc mpirun; do
    command -v "$t" >/dev/null || die "$t not found (Open MPI: scripts/setup-deps.sh)"
  done
fi
IFS=, read -r -a dir_list <<<"$dirs"

export USER=${USER:-$(id -un)}   # runtests runs "ps -U $USER"

# ---------------------------------------------------------------------------
# Tools: autotools for autogen, perl for runtests (Debian packages, as
# scripts/setup-deps.sh installs the project's).
ensure_tools() {
  local missing=() pair
  for pair in autoconf:autoconf automake:automake libtoolize:libtool perl:perl make:make; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  note "installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

src=$work/src/mpi
logs=$work/logs
mkdir -p "$logs"

# Copy test/mpi out of DIR (once) and run its autogen.
prepare_source() {
  if [ -x "$src/configure" ]; then
    note "reusing $src (delete $work/src to copy and autogen afresh)"
    return 0
  fi
  rm -rf "$work/src"
  mkdir -p "$work/src"
  note "copying $mpich_src/test/mpi to $src"
  cp -a "$mpich_src/test/mpi" "$src"
  if [ -x "$src/configure" ]; then
    return 0   # release tarball: already autogen'd
  fi
  ensure_tools
  [ -d "$mpich_src/confdb" ] || die "$mpich_src has no confdb (needed by test/mpi/autogen.sh)"
  [ -d "$src/confdb" ] || cp -a "$mpich_src/confdb" "$src/confdb"
  [ -d "$src/dtpools/confdb" ] || cp -a "$mpich_src/confdb" "$src/dtpools/confdb"
  if [ ! -e "$src/version.m4" ]; then
    [ -f "$mpich_src/maint/version.m4" ] || die "$mpich_src has no maint/version.m4"
    cp "$mpich_src/maint/version.m4" "$src/version.m4"
  fi
  note "autogen (log: $logs/autogen.log)"
  (cd "$src" && PYTHON=python3 ./autogen.sh) >"$logs/autogen.log" 2>&1 ||
    { tail -20 "$logs/autogen.log"; rm -f "$src/configure"; die "autogen failed (see $logs/autogen.log)"; }
}

# configure_build KIND CC: a VPATH build in WORK/build-KIND, configured once.
configure_build() {
  local kind=$1 cc=$2 bdir=$work/build-$1
  if [ -f "$bdir/config.status" ] && [ -f "$bdir/Makefile" ]; then
    return 0
  fi
  mkdir -p "$bdir"
  note "configuring the $kind build with CC=$cc (log: $logs/configure-$kind.log)"
  (cd "$bdir" && "$src/configure" CC="$cc" MPICC="$cc" \
      --disable-maintainer-mode --disable-shared --enable-strictmpi \
      --disable-fortran --disable-cxx --disable-threads --disable-spawn \
      --disable-namepub --disable-ft-tests --disable-checkfaults \
      --disable-collalgo-tests --without-cuda --without-ze --without-hip) \
    >"$logs/configure-$kind.log" 2>&1 ||
    { tail -20 "$logs/configure-$kind.log"; rm -f "$bdir/config.status"; die "configure ($kind) failed"; }
  grep -q "^CC = $cc\$" "$bdir/util/Makefile" || die "configure ($kind) did not keep CC=$cc"
}

# ELF executables of a build folder (the test programs).
folder_programs() {
  local f
  for f in "$1"/*; do
    [ -f "$f" ] && [ -x "$f" ] && [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$f"
  done
  return 0
}

build_folders() {
  local kind=$1 bdir=$work/build-$1 d rc
  # the support libraries first: without them nothing links
  for d in util dtpools; do
    make -C "$bdir/$d" -j "$(nproc)" >"$logs/make-$kind-$d.log" 2>&1 ||
      { tail -20 "$logs/make-$kind-$d.log"; die "building $kind $d failed"; }
  done
  for d in "${dir_list[@]}"; do
    [ -f "$bdir/$d/Makefile" ] || die "no folder '$d' in the $kind build (see --dirs)"
    # with --tests, runtests makes just the programs it runs
    [ -n "$tests" ] && continue
    rc=0
    make -k -C "$bdir/$d" -j "$(nproc)" >"$logs/make-$kind-$d.log" 2>&1 || rc=$?
    local nprog nfail
    nprog=$(folder_programs "$bdir/$d" | wc -l)
    nfail=$(grep -c '\*\*\* \[' "$logs/make-$kind-$d.log" || true)
    note "  $kind $d: $nprog programs built$([ "$rc" = 0 ] || echo ", make failures: $nfail (see $logs/make-$kind-$d.log)")"
  done
}

# With --tests, only the matching tests' programs go.
relink_tucana() {
  local d n=0 f bdir=$work/build-tucana
  for d in "${dir_list[@]}"; do
    [ -d "$bdir/$d" ] || continue
    if [ -n "$tests" ]; then
      while read -r f; do
        if [ -f "$bdir/$f" ]; then rm -f "$bdir/$f"; n=$((n + 1)); fi
      done < <(harness_py genlists "$bdir" "$src" "$d" "$tests" - -)
    else
      while read -r f; do rm -f "$f"; n=$((n + 1)); done < <(folder_programs "$bdir/$d")
    fi
  done
  note "relink: removed $n tucana test executables"
}

# run_layout LAYOUT: runtests over each folder, then collation.
run_layout() {
  local layout=$1 kind=tucana
  [ "$layout" = native ] && kind=native
  local bdir=$work/build-$kind rdir=$work/run-$layout
  local listname=testlist.harness-$layout manifest
  mkdir -p "$rdir/out"
  manifest=$rdir/manifest.tsv
  : >"$manifest"
  {
    echo "date: $(date -u '+%F %T UTC')"
    echo "layout: $layout  build: $bdir  folders: $dirs  tests: ${tests:-all}  timeout: $timeout (cap $max_timeout)"
    if [ "$kind" = tucana ]; then
      echo "tucana: $(git -C "$script_dir/.." rev-parse --short HEAD 2>/dev/null || echo '?')" \
           "(libtucana.a of $(date -u -r "$tucana_bin/../runtime/libtucana.a" '+%F %T UTC' 2>/dev/null || echo '?'))"
    fi
    echo "mpirun: $(mpirun --version 2>&1 | head -1)"
  } >"$rdir/info.txt"
  local d n t0 t1 total0
  total0=$(date +%s)
  for d in "${dir_list[@]}"; do
    local before
    before=$(wc -l <"$manifest")
    n=$(harness_py genlists "$bdir" "$src" "$d" "$tests" "$listname" "$manifest")
    [ "$n" -gt 0 ] || { note "  $layout $d: no tests match"; continue; }
    # forget the previous records of these tests
    tail -n "+$((before + 1))" "$manifest" | while IFS=$'\t' read -r id _; do
      rm -f "$rdir/out/${id/://}".{out,rc,cmd}
    done
    note "  $layout $d: $n tests (log: $logs/runtests-$layout-$d.log)"
    t0=$(date +%s)
    (cd "$bdir" && MPITEST_TIMEOUT=$timeout MPITEST_RUN_INDIVIDUAL=1 MPITEST_CLEANUP=0 \
       HARNESS_OUT_DIR=$rdir/out HARNESS_TIMEOUT=$timeout HARNESS_MAX_TIMEOUT=$max_timeout \
       perl "$src/runtests" -srcdir="$src" -tests="$listname" -testdirs="$d" -strict \
         -mpiexec="bash $self --mpiexec-wrapper $layout" -junitfile="$rdir/junit-$d.xml" \
       >"$logs/runtests-$layout-$d.log" 2>&1) || note "  runtests exited with $? (see its log)"
    t1=$(date +%s)
    echo "$d $((t1 - t0))" >>"$rdir/times.txt"
    note "  $layout $d: $(grep -E 'tests failed out of|tests passed' "$logs/runtests-$layout-$d.log" | tail -1 | sed 's/^ *//') [$((t1 - t0)) s]"
  done
  note "$layout: wall time $(($(date +%s) - total0)) s"
  echo "total $(($(date +%s) - total0)) ($dirs${tests:+, tests $tests})" >>"$rdir/times.txt"
  local regex_used=0
  [ -n "$tests" ] && regex_used=1
  # the junit files of folders not run this time may be stale: use only ours
  rm -rf "$rdir/junit-last"
  mkdir -p "$rdir/junit-last"
  for d in "${dir_list[@]}"; do
    if [ -f "$rdir/junit-$d.xml" ]; then cp "$rdir/junit-$d.xml" "$rdir/junit-last/"; fi
  done
  echo "$regex_used $dirs" >"$rdir/collate.args"
  recollate "$layout"
}


# ---------------------------------------------------------------------------
prepare_source
if [ "$want_native" = 1 ]; then
  configure_build native "$(command -v mpicc)"
  note "building the native build: $dirs"
  build_folders native
fi
if [ "$want_tucana" = 1 ]; then
  configure_build tucana "$tucana_bin/tucanacc"
  [ "$relink" = 1 ] && relink_tucana
  note "building the tucana build: $dirs"
  build_folders tucana
fi
for l in "${layout_list[@]}"; do
  note "running layout $l"
  # stale junit files of an earlier run must not be read for this one
  for d in "${dir_list[@]}"; do rm -f "$work/run-$l/junit-$d.xml"; done
  run_layout "$l"
done
echo
harness_py summary "$work" native,shared,single "$work/summary.txt"
note "results: $work/results-{native,shared,single}.tsv, summary: $work/summary.txt"
