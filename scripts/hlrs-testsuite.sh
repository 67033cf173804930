#!/usr/bin/env bash
# Builds the HLRS / Open MPI "mpi-test-suite" (one binary, mpi_test_suite)
# natively with Open MPI's mpicc and with Tucana's tucanacc, runs its test
# classes under mpirun and under tucana-run, and reports each test x
# communicator x datatype combination as PASS, FAIL or TIMEOUT.
#
# Usage: scripts/hlrs-testsuite.sh --src DIR --work DIR [options]
#   --src DIR         mpi-test-suite sources: a checkout, a release tree or a
#                     bare git repository (its HEAD is extracted)
#   --work DIR        where the sources are copied, built and run (outside the
#                     project); results land in DIR/results-<layout>.tsv
#   --build B         native | tucana | both (default: what --layout needs)
#   --layout L        native | shared | single, or a comma list (default:
#                     native,shared,single; with --build tucana shared,single)
#                       native: mpirun --oversubscribe -np N ./mpi_test_suite
#                       shared: tucana-run -np P --vranks N ./mpi_test_suite
#                               (P = 2 when N >= 2: several subranks a process)
#                       single: tucana-run -np N --vf 1 ./mpi_test_suite
#   --np N            MPI ranks (default 4: the smallest size for which the
#                     suite creates all its communicators, intercomms included)
#   --tests LIST      test classes or test names, comma separated; each item is
#                     run as its own job (default: Environment,P2P,Collective,
#                     One-sided,IO)
#   --comms LIST      the suite's -c (default: all)
#   --datatypes LIST  the suite's -d (default: all but the two MIX_LB_UB types,
#                     which are MPI_DATATYPE_NULL placeholders under MPI >= 3)
#   --io-datatypes L  -d for the items made of IO tests only (default: the
#                     --datatypes given, else the default without the struct
#                     types with holes: MPI_DOUBLE_INT, MPI_LONG_INT,
#                     MPI_SHORT_INT, MPI_TYPE_MIX, MPI_TYPE_MIX_ARRAY, with
#                     which Open MPI 4.1's nonblocking file I/O hangs natively)
#   --num-values N    the suite's -n (default 1000)
#   --mode M          the suite's -x: strict (default; also runs the two
#                     strict-only Environment tests), relaxed or disabled
#   --timeout S       a job is killed (TIMEOUT) when its output has not grown
#                     for S seconds (default 60)
#   --job-limit S     and in any case after S seconds (default 1800)
#   --max-timeouts K  after K timeouts in one --tests item, the rest of that
#                     item is not run (default 10): each hang costs --timeout
#   --mca KEY VALUE   Open MPI parameter for every layout (repeatable; default
#                     "osc sm,pt2pt", see below; --mca none for no default)
#   --tucana-bin DIR  Tucana's bin directory (default: <project>/build/bin)
#   --jobs J          make -j J (default: the number of cores)
#   --rebuild         copy the sources again and rebuild from scratch
#   --summary-only    print the summary of the saved results and exit
#
# How it is done (and why):
#   * The suite runs every selected test with every communicator and datatype
#     the test accepts, in one MPI job, and prints by itself only failures
#     (rank 0's, at the end).  The harness runs it with "-r run": rank 0 prints
#     a line as each combination starts, which is how the harness knows what
#     ran.  A failure is recorded by the rank that sees it; its "ERROR test:"
#     line is only printed at "-r full", which also hexdumps every wrong
#     buffer (17 s instead of 1.4 s for one IO test, gigabytes for a class).
#     So the copy of the sources gets one line changed (tst_tests.c): that
#     line is printed at "-r run" too.  Nothing else is changed.
#   * The suite's MPI_CHECK only prints that an MPI call returned an error;
#     the harness counts it as a failure of the combination rank 0 started
#     last.  The message has no newline, so under tucana-run (each subrank's
#     output is line-buffered) a subrank other than 0 may print it only when
#     it exits; after the summary it fails a "(job ...)" row instead.
#   * Each test selection (--tests item) is one job.  When a job crashes or
#     hangs, the combination rank 0 started last is marked FAIL or TIMEOUT
#     and the rest is run in new jobs: the same test on the communicators
#     after it, on the same communicator with the datatypes after it, and the
#     tests after it.  (Rank 0 may be one combination ahead of a stuck rank
#     in tests without a barrier between combinations, so the blame can be
#     off by one.)  Selections are passed to the suite as numbers, resolved
#     from its -l listing, because its names are ambiguous (two tests are
#     called "Alltoall") and it cannot exclude names of 48 characters.
#   * configure: --disable-mpi4-partitioned-p2p, since Open MPI 4.1 has no
#     partitioned point-to-point (those are Threaded-class tests, which need
#     --enable-mpi2-threads and are not built, like the Dynamic class).
#     configure's MPI check links "char MPI_Init();" without <mpi.h>, which
#     tucanacc refuses; then the tucana build is configured with mpicc (the
#     same gcc underneath) and built with make CC=tucanacc.
#   * --mca osc sm,pt2pt: Open MPI 4.1's osc/rdma names its shared-memory
#     segment after the communicator's id, which disjoint split communicators
#     share, so MPI_Win_create fails natively on "Halved MPI_COMM_WORLD".
#   * The tucana build is relinked when Tucana's runtime libraries are newer
#     than it, and recompiled when the translator or Tucana's headers changed.
#
# Exit status: 0 when the harness worked (even if tests failed: it is a
# report), non-zero when it could not build or run the suite.
#
# Example:
#   scripts/hlrs-testsuite.sh --src /work/mpi-test-suite --work /work/hlrs-suite
#   scripts/hlrs-testsuite.sh --src ... --work ... --build tucana --layout shared \
#       --tests 'Ring Isend,One-sided' --comms INTER_COMM --datatypes MPI_INT
set -euo pipefail

self=$(realpath "${BASH_SOURCE[0]}")
project=$(dirname "$(dirname "$self")")
tucana_bin=$project/build/bin

# Open MPI refuses to run as root unless told that it is wanted.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

die() { echo "hlrs-testsuite: error: $*" >&2; exit 1; }
note() { echo "hlrs-testsuite: $*"; }

src="" work="" build="" layouts="" np=4
tests="Environment,P2P,Collective,One-sided,IO"
comms="all"
datatypes="all,^MPI_TYPE_MIX_LB_UB,^Dup MPI_TYPE_MIX_LB_UB"
io_datatypes=""
num_values=1000 mode=strict timeout=60 job_limit=1800 max_timeouts=10
jobs=$(nproc) rebuild=0 summary_only=0
mca=() mca_given=0 datatypes_given=0

need() { if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a value"; fi; }
while [ $# -gt 0 ]; do
  case "$1" in
    --src) need "$@"; src=$2; shift 2 ;;
    --work) need "$@"; work=$2; shift 2 ;;
    --build) need "$@"; build=$2; shift 2 ;;
    --layout) need "$@"; layouts=$2; shift 2 ;;
    --np) need "$@"; np=$2; shift 2 ;;
    --tests) need "$@"; tests=$2; shift 2 ;;
    --comms) need "$@"; comms=$2; shift 2 ;;
    --datatypes) need "$@"; datatypes=$2; datatypes_given=1; shift 2 ;;
    --io-datatypes) need "$@"; io_datatypes=$2; shift 2 ;;
    --num-values) need "$@"; num_values=$2; shift 2 ;;
    --mode) need "$@"; mode=$2; shift 2 ;;
    --timeout) need "$@"; timeout=$2; shift 2 ;;
    --job-limit) need "$@"; job_limit=$2; shift 2 ;;
    --max-timeouts) need "$@"; max_timeouts=$2; shift 2 ;;
    --mca)
      mca_given=1
      if [ "${2:-}" = none ]; then shift 2; continue; fi
      [ $# -ge 3 ] || die "--mca needs KEY VALUE"
      mca+=(--mca "$2" "$3"); shift 3 ;;
    --tucana-bin) need "$@"; tucana_bin=$2; shift 2 ;;
    --jobs) need "$@"; jobs=$2; shift 2 ;;
    --rebuild) rebuild=1; shift ;;
    --summary-only) summary_only=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
[ "$mca_given" = 1 ] || mca=(--mca osc "sm,pt2pt")
if [ -z "$io_datatypes" ]; then
  io_datatypes=$datatypes
  # Open MPI 4.1's nonblocking file I/O hangs natively with the struct types
  # that have holes, one --timeout per combination (about 280 at np 4).
  [ "$datatypes_given" = 1 ] ||
    io_datatypes+=",^MPI_DOUBLE_INT,^MPI_LONG_INT,^MPI_SHORT_INT,^MPI_TYPE_MIX,^MPI_TYPE_MIX_ARRAY"
fi

[ -n "$work" ] || die "--work DIR is required"
mkdir -p "$work"
work=$(realpath "$work")

# Which layouts, which builds.
if [ -z "$layouts" ]; then
  case "$build" in
    native) layouts=native ;;
    tucana) layouts=shared,single ;;
    both | "") layouts=native,shared,single ;;
    *) die "--build must be native, tucana or both" ;;
  esac
fi
need_native=0 need_tucana=0
IFS=, read -r -a layout_list <<<"$layouts"
for l in "${layout_list[@]}"; do
  case "$l" in
    native) need_native=1 ;;
    shared | single) need_tucana=1 ;;
    *) die "unknown layout '$l' (native, shared or single)" ;;
  esac
done
case "$build" in
  native) [ "$need_tucana" = 0 ] || die "--build native cannot run the layouts $layouts" ;;
  tucana) [ "$need_native" = 0 ] || die "--build tucana cannot run the native layout" ;;
  both) need_native=1 need_tucana=1 ;;
  "") ;;
  *) die "--build must be native, tucana or both" ;;
esac
[[ $np =~ ^[1-9][0-9]*$ ]] || die "--np must be a positive number"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive number of seconds"
[[ $job_limit =~ ^[1-9][0-9]*$ ]] || die "--job-limit must be a positive number of seconds"
[[ $max_timeouts =~ ^[1-9][0-9]*$ ]] || die "--max-timeouts must be a positive number"
case "$mode" in strict | relaxed | disabled) ;; *) die "--mode must be strict, relaxed or disabled" ;; esac
command -v python3 >/dev/null || die "python3 is needed"

# ---------------------------------------------------------------------------
# Python (stdlib): running the jobs, reading their output, the summary.
harness_py() {
  python3 - "$@" <<'PY'
import os, re, signal, subprocess, sys, time

def clean(s):
    # MPI_CHECK's message has no newline: keep the first of several glued ones
    parts = [p for p in re.split(r'(?=\([\w/.-]+\.c:\d+\) ERROR: )', s) if p.strip()]
    return re.sub(r'\s+', ' ', parts[0] if parts else s).strip()[:300]

# ---- the suite's output --------------------------------------------------
# rank 0, "-r run":  "<Class> tests <name> (<id+1>/<n>), comm <name> (<id+1>/<n>), type <name> (<id+1>/<n>)"
RX_START = re.compile(r'^(.+?) tests (.+) \((\d+)/\d+\), comm (.+) \((\d+)/\d+\), type (.+) \((\d+)/\d+\)\s*$')
# any rank (the patched line): "ERROR test:<name> (<id+1>), comm <name> (<id+1>), type <name> (<id+1>)"
RX_FAIL = re.compile(r'ERROR test:(.+) \((\d+)\), comm (.+) \((\d+)\), type (.+) \((\d+)\)')
# rank 0's own summary at the end
RX_SUMMARY = re.compile(r'ERROR class:(.+?) test:(.+) \((\d+)\), comm (.+) \((\d+)\), type (.+) \((\d+)\) number of values')
RX_DONE = re.compile(r'^Number of failed tests: (\d+)')
# the suite's ERROR() and MPI_CHECK() messages: "(file.c:123) ERROR: ..."
RX_SUITE_ERR = re.compile(r'\(([\w/.-]+\.c):\d+\) ERROR: ')

# mpirun's closing words, said of any failed job
RX_BOILER = re.compile(r'Primary job +terminated normally|returned\s*$|a non-zero exit code|'
                       r'Per user-direction|^mpirun (noticed|has exited)|orte_base_help_aggregate|'
                       r'help message help-')
RX_TELLING = re.compile(r'error|signal|abort|assert|deadlock|fault|tucana|terminate|killed', re.I)

def boring(line):
    s = line.strip()
    return (not s or re.fullmatch(r'[-=*_#\s]+', s) is not None or RX_BOILER.search(s) is not None
            or s.startswith('(Rank:0) tst_test_array[') or RX_START.match(s) is not None)

def listing(text):
    """The suite's -l output: tests, classes, communicators, datatypes."""
    tests, comms, types, classes = {}, {}, {}, []
    for l in text.splitlines():
        m = re.match(r'^(.+) test:(\d+) (.+)$', l)
        if m and not l.startswith('Num Tests'):
            tests[int(m.group(2))] = (m.group(1), m.group(3).strip())
            continue
        m = re.match(r'^Test-Class:\d+ (.+)$', l)
        if m:
            classes.append(m.group(1).strip())
            continue
        m = re.match(r'^Communicator:(\d+) (.+)$', l)
        if m:
            comms[int(m.group(1))] = m.group(2).strip()
            continue
        m = re.match(r'^Datatype:(\d+) (.+)$', l)
        if m:
            types[int(m.group(1))] = re.sub(r' n/a$', '', m.group(2).strip())
    return tests, comms, types, classes

def resolve(sel, universe, count):
    """The suite's -c/-d selection as a list of numbers in the suite's order,
    or None when it names a class or an entry that only a name selects (left
    to the suite as it is; then a crash is resumed at the next test only).
    "all" is the first `count` entries of the listing (for the datatypes
    fewer than listed: the suite lists two it does not select with "all")."""
    if count is None:
        return None
    universe = {i: n for i, n in universe.items()}
    ids = []
    for item in sel.split(','):
        item = item.strip()
        if not item:
            continue
        neg = item.startswith('^')
        key = item[1:] if neg else item
        if key.lower() == 'all':
            found = [i for i in sorted(universe) if i < count]
        elif key.isdigit():
            found = [int(key)]
        else:
            found = [i for i, n in sorted(universe.items()) if n.lower() == key.lower()]
            if not found:
                return None
        if neg:
            ids = [i for i in ids if i not in found]
        else:
            ids += [i for i in found if i not in ids]
    return None if any(i >= count for i in ids) else ids

def select_tests(item, tests, classes):
    key = item.strip().lower()
    if key in [c.lower() for c in classes]:
        return [i for i, (c, _) in sorted(tests.items()) if c.lower() == key]
    if key.isdigit() and int(key) in tests:
        return [int(key)]
    ids = [i for i, (_, n) in sorted(tests.items()) if n.lower() == key]
    if not ids:
        sys.exit("hlrs-testsuite: error: no test or test class '%s' in the suite's -l listing" % item)
    return ids

# ---- running one job -------------------------------------------------------
def kill_session(sid, sig):
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % pid) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            if int(fields[3]) == sid and int(pid) != os.getpid():
                os.kill(int(pid), sig)
        except (OSError, IndexError, ValueError):
            pass

def run_job(cmd, cwd, outpath, stall, limit):
    """Run cmd in a session of its own; kill it (and whatever it left behind)
    when its output stalls for `stall` seconds or it runs `limit` seconds."""
    start = time.time()
    with open(outpath, 'wb') as out:
        out.write(('# ' + ' '.join(cmd) + '\n').encode())
        out.flush()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        CURRENT[0] = p.pid
        size, changed, killed = -1, start, None
        while True:
            try:
                rc = p.wait(timeout=1)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.time()
            s = os.path.getsize(outpath)
            if s != size:
                size, changed = s, now
            if now - changed > stall:
                killed = 'no output for %d s' % stall
            elif now - start > limit:
                killed = 'still running after %d s' % limit
            if killed:
                kill_session(p.pid, signal.SIGTERM)
                try:
                    rc = p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    kill_session(p.pid, signal.SIGKILL)
                    rc = p.wait()
                break
        kill_session(p.pid, signal.SIGKILL)      # leftovers of a finished job
        CURRENT[0] = None
    return rc, killed, time.time() - start

# The job's own session does not get the harness's Ctrl-C or kill: pass it on.
CURRENT = [None]
def interrupted(sig, frame):
    if CURRENT[0]:
        kill_session(CURRENT[0], signal.SIGKILL)
    sys.exit('hlrs-testsuite: interrupted')
signal.signal(signal.SIGTERM, interrupted)
signal.signal(signal.SIGINT, interrupted)

def first_diag(lines, frm):
    """The first line after lines[frm] that tells what went wrong."""
    cand = [l for l in lines[frm:] if not boring(l) and not RX_FAIL.search(l) and not l.startswith('# ')]
    for l in cand:
        if RX_TELLING.search(l):
            return clean(l)
    return clean(cand[0]) if cand else ''

def parse_job(text):
    """-> lines, started combinations in order, {combination: its first line},
    failures {combination: note}, done (the summary was printed), and the
    suite's error messages printed after the summary"""
    lines = text.splitlines()
    started, where, fails, done, late = [], {}, {}, False, []
    cur = None
    for i, l in enumerate(lines):
        m = RX_START.match(l)
        if m:
            cur = (int(m.group(3)) - 1, int(m.group(5)) - 1, int(m.group(7)) - 1)
            if cur not in where:
                where[cur] = i
                started.append(cur)
            continue
        m = RX_FAIL.search(l) or RX_SUMMARY.search(l)
        if m:
            g = m.groups()[-6:]
            key = (int(g[1]) - 1, int(g[3]) - 1, int(g[5]) - 1)
            if key not in fails:
                # a suite ERROR: message since the combination started says more
                note = ''
                for l2 in lines[where.get(key, i):i]:
                    if RX_SUITE_ERR.search(l2):
                        note = clean(l2)
                        break
                fails[key] = note or clean(l[m.start():])
            continue
        if RX_SUITE_ERR.search(l) and done:
            # MPI_CHECK's message has no newline: under tucana-run a subrank's
            # line buffer holds it until the subrank exits, so after the
            # summary the combination it belongs to is unknown.
            late.append(clean(l))
            continue
        if RX_SUITE_ERR.search(l) and cur is not None and cur not in fails:
            fails[cur] = clean(l)          # an MPI call returned an error
            continue
        if RX_DONE.match(l):
            done = True
    return lines, started, where, fails, done, late

def run_layout(env):
    work, layout = env['H_WORK'], env['H_LAYOUT']
    launcher = env['H_LAUNCHER'].split('\x1f')
    binary = env['H_BIN']
    stall, limit = int(env['H_TIMEOUT']), int(env['H_JOB_LIMIT'])
    rundir = os.path.join(work, 'run-' + layout)
    outdir = os.path.join(rundir, 'out')
    cwd = os.path.join(rundir, 'cwd')             # the IO tests' files go here
    os.makedirs(outdir, exist_ok=True)
    os.makedirs(cwd, exist_ok=True)

    rc, killed, _ = run_job(launcher + [binary, '-l'], cwd, os.path.join(rundir, 'listing.txt'), 60, 120)
    text = open(os.path.join(rundir, 'listing.txt'), errors='replace').read()
    tests, comms, types, classes = listing(text)
    if rc != 0 or not tests or not comms or not types:
        sys.stdout.write(text[-3000:])
        sys.exit('hlrs-testsuite: error: %s: mpi_test_suite -l failed (exit %s%s)'
                 % (layout, rc, ', ' + killed if killed else ''))
    # How many entries "all" selects: the denominators of a one-combination probe.
    probe = os.path.join(rundir, 'probe.txt')
    run_job(launcher + [binary, '-t', 'Get_version', '-c', 'MPI_COMM_SELF', '-d', 'all',
                        '-x', 'disabled', '-r', 'run'], cwd, probe, 60, 120)
    m = re.search(r'comm .+ \(\d+/(\d+)\), type .+ \(\d+/(\d+)\)', open(probe, errors='replace').read())
    ncomms, ntypes = (int(m.group(1)), int(m.group(2))) if m else (None, None)
    comm_ids = resolve(env['H_COMMS'], comms, ncomms)
    type_sel = {'': env['H_TYPES'], 'IO': env['H_IO_TYPES']}
    type_ids = {k: resolve(v, types, ntypes) for k, v in type_sel.items()}
    if comm_ids is None or None in type_ids.values():
        print('  %-12s (selection passed on by name: a crash is resumed at the next test only)' % layout)
    base = ['-n', env['H_NVALUES'], '-x', env['H_MODE'], '-r', 'run']

    rows = {}            # (tid, cid, yid) or ('job', label, n) -> (status, note)
    selected = set()
    joblog = open(os.path.join(rundir, 'jobs.tsv'), 'w')
    joblog.write('job\tattempt\texit\tseconds\tcombinations\tend\n')
    max_timeouts = int(env['H_MAX_TIMEOUTS'])
    for item in [t for t in env['H_TESTS'].split(',') if t.strip()]:
        ids = select_tests(item, tests, classes)
        selected.update(ids)
        label = re.sub(r'[^A-Za-z0-9_.-]+', '_', item.strip())
        io = 'IO' if all(tests[i][0] == 'IO' for i in ids) else ''   # --io-datatypes
        queue = [(ids, comm_ids, type_ids[io])]
        attempt = timeouts = 0
        t0 = time.time()
        while queue:
            tids, cids, yids = queue.pop(0)
            attempt += 1
            outp = os.path.join(outdir, '%s.%d.out' % (label, attempt))
            cmd = launcher + [binary, '-t', ','.join(map(str, tids)),
                              '-c', ','.join(map(str, cids)) if cids is not None else env['H_COMMS'],
                              '-d', ','.join(map(str, yids)) if yids is not None else type_sel[io]] + base
            rc, killed, secs = run_job(cmd, cwd, outp, stall, limit)
            lines, started, where, fails, done, late = parse_job(open(outp, errors='replace').read())
            if late:
                rows[('job', label, '%d, at exit' % attempt)] = (
                    'FAIL', 'MPI error printed at exit (combination unknown): ' + late[0])
            for key in started:
                rows[key] = ('FAIL', fails[key]) if key in fails else ('PASS', '')
            for key, note in fails.items():       # (a failure whose start line is missing)
                rows.setdefault(key, ('FAIL', note))
            ok_exit = rc == 0 or (rc == 255 and fails)
            if done and not killed and ok_exit:
                end = 'completed'
            elif done and not killed:
                end = 'exit %d after the summary' % rc
                diag = first_diag(lines, 0) or 'no output'
                if rc == 255:
                    diag = 'a rank other than 0 failed (exit 255) without an ERROR line: ' + diag
                rows[('job', label, attempt)] = ('FAIL', 'exit %d after all tests: %s' % (rc, diag))
            else:
                end = ('killed: ' + killed) if killed else 'exit %d before the summary' % rc
                status = 'TIMEOUT' if killed else 'FAIL'
                if not started:
                    rows[('job', label, attempt)] = (status, '%s; %s' % (end, first_diag(lines, 0) or 'no output'))
                else:
                    last = started[-1]
                    diag = first_diag(lines, where[last] + 1)
                    note = end + ('; ' + diag if diag else '')
                    if last in fails:
                        note = fails[last] + '; then ' + note
                    rows[last] = (status, note)
                    timeouts += status == 'TIMEOUT'
                    if timeouts >= max_timeouts:
                        # Each hang costs --timeout seconds: give up on this item.
                        rows[('job', label, attempt)] = (
                            'TIMEOUT', 'gave up after %d timeouts; the rest of this selection was not run'
                            % timeouts)
                        queue = []
                    else:
                        t, c, y = last
                        if t in tids and tids.index(t) + 1 < len(tids):
                            queue.insert(0, (tids[tids.index(t) + 1:], cids, yids))
                        if cids is not None and c in cids and cids.index(c) + 1 < len(cids):
                            queue.insert(0, ([t], cids[cids.index(c) + 1:], yids))
                        if yids is not None and y in yids and yids.index(y) + 1 < len(yids):
                            queue.insert(0, ([t], [c], yids[yids.index(y) + 1:]))
            joblog.write('%s\t%d\t%s\t%.1f\t%d\t%s\n' % (item, attempt, rc, secs, len(started), end))
            joblog.flush()
        print('  %-12s %-10s %3d job(s) %6.1f s' % (layout, item, attempt, time.time() - t0), flush=True)
    joblog.close()

    # Merge into results-<layout>.tsv: this run's tests replace their old rows.
    path = os.path.join(work, 'results-%s.tsv' % layout)
    names = {i: tests[i] for i in tests}
    sel_names = {names[i] for i in selected}
    labels = {re.sub(r'[^A-Za-z0-9_.-]+', '_', t.strip()) for t in env['H_TESTS'].split(',')}
    old = []
    if os.path.exists(path):
        for l in open(path):
            f = l.rstrip('\n').split('\t')
            if l.startswith('class\t') or len(f) < 6:
                continue
            if (f[0], f[1]) in sel_names:
                continue
            if f[1].startswith('(job ') and f[1][5:].split(')')[0] in labels:
                continue
            old.append(f)
    new = []
    for key, (st, note) in rows.items():
        if key[0] == 'job':
            new.append(['(job)', '(job %s)' % key[1], 'attempt %s' % key[2], '-', st, note])
        else:
            t, c, y = key
            new.append([names[t][0], names[t][1], comms.get(c, str(c)), types.get(y, str(y)), st, note])
    order_t = {v: k for k, v in names.items()}
    order_c = {v: k for k, v in comms.items()}
    order_y = {v: k for k, v in types.items()}
    def sortkey(f):
        return (order_t.get((f[0], f[1]), 10**6), f[1], order_c.get(f[2], 10**6), order_y.get(f[3], 10**6))
    allrows = sorted(old + new, key=sortkey)
    with open(path, 'w') as f:
        f.write('class\ttest\tcomm\ttype\tstatus\tnote\n')
        for r in allrows:
            f.write('\t'.join(x.replace('\t', ' ') for x in r) + '\n')
    n = {s: sum(1 for r in new if r[4] == s) for s in ('PASS', 'FAIL', 'TIMEOUT')}
    print('  %-12s %d combinations: %d PASS, %d FAIL, %d TIMEOUT -> %s'
          % (layout, len(new), n['PASS'], n['FAIL'], n['TIMEOUT'], path), flush=True)

# ---- summary ---------------------------------------------------------------
def read_results(path):
    res = {}
    if os.path.exists(path):
        for l in open(path, errors='replace'):
            f = l.rstrip('\n').split('\t')
            if l.startswith('class\t') or len(f) < 6:
                continue
            res[tuple(f[:4])] = (f[4], f[5])
    return res

def summary(env):
    work = env['H_WORK']
    layouts = [l for l in ('native', 'shared', 'single')
               if os.path.exists(os.path.join(work, 'results-%s.tsv' % l))]
    if not layouts:
        sys.exit('hlrs-testsuite: error: no results-*.tsv in %s' % work)
    res = {l: read_results(os.path.join(work, 'results-%s.tsv' % l)) for l in layouts}
    ref = res.get('native')
    classes = []
    for l in layouts:
        for k in res[l]:
            if k[0] not in classes:
                classes.append(k[0])
    print()
    print('Summary (combinations of test x communicator x datatype; %s)' % work)
    head = '%-12s %8s' % ('class', 'run') + ''.join('%10s' % (l + ' ok') for l in layouts)
    print(head)
    print('-' * len(head))
    tot = [0] * (len(layouts) + 1)
    for c in classes:
        keys = {k for l in layouts for k in res[l] if k[0] == c}
        if ref is not None:
            keys = {k for k in keys if k in ref} or keys
        cells = [len(keys)] + [sum(1 for k in keys if res[l].get(k, ('',))[0] == 'PASS') for l in layouts]
        tot = [a + b for a, b in zip(tot, cells)]
        ran = [any(k[0] == c for k in res[l]) for l in layouts]     # '-': class not run there
        print('%-12s %8d' % (c, cells[0]) + ''.join('%10s' % (x if r else '-') for x, r in zip(cells[1:], ran)))
    print('%-12s %8d' % ('total', tot[0]) + ''.join('%10d' % x for x in tot[1:]))
    if ref is None:
        print('\n(no native results: nothing to compare with)')
        return
    for l in layouts:
        if l == 'native':
            continue
        regress = []
        ran = {k[:2] for k in res[l]}          # tests this layout ran (at least in part)
        for k, (st, note) in ref.items():
            if st != 'PASS' or k[:2] not in ran:
                continue
            got = res[l].get(k)
            if got is None:
                # (a crashed job's rest is run again, so this is the suite's own
                # choice, e.g. a communicator of another size under this layout)
                regress.append(list(k) + ['NOT RUN', 'the suite did not start it under this layout'])
            elif got[0] != 'PASS':
                regress.append(list(k) + list(got))
        for k, (st, note) in res[l].items():     # job-level failures of this layout
            if k[0] == '(job)' and st != 'PASS':
                regress.append(list(k) + [st, note])
        regress.sort(key=lambda r: (classes.index(r[0]) if r[0] in classes else 99, r[1]))
        path = os.path.join(work, 'regressions-%s.tsv' % l)
        with open(path, 'w') as f:
            f.write('class\ttest\tcomm\ttype\tstatus\tnote\n')
            for r in regress:
                f.write('\t'.join(r) + '\n')
        failed = [r for r in regress if r[4] != 'NOT RUN']
        print('\n%s: %d combination(s) pass natively but FAIL or TIMEOUT under tucana, %d not started '
              '(%s)' % (l, len(failed), len(regress) - len(failed), path))
        bytest = {}
        for r in failed + [r for r in regress if r[4] == 'NOT RUN']:
            bytest.setdefault((r[0], r[1]), []).append(r)
        for (c, t), rs in bytest.items():
            total = sum(1 for k in ref if k[0] == c and k[1] == t and ref[k][0] == 'PASS')
            sts = sorted({r[4] for r in rs})
            commset = sorted({r[2] for r in rs})
            if c == '(job)':
                print('  %s: %s' % (t, ','.join(sts)))
            else:
                print('  %s / %s: %d of %d (%s) comms: %s' % (c, t, len(rs), total, ','.join(sts),
                      '; '.join(commset) if len(commset) <= 4 else '%d comms' % len(commset)))
            notes = []
            for r in rs:
                n = re.sub(r'\d+', 'N', r[5])[:120]
                if n not in [x[0] for x in notes]:
                    notes.append((n, r))
            for n, r in notes[:2]:
                print('      e.g. [%s, %s] %s' % (r[2], r[3], r[5][:200]))

if __name__ == '__main__':
    {'run': run_layout, 'summary': summary}[sys.argv[1]](os.environ)
PY
}

if [ "$summary_only" = 1 ]; then
  H_WORK=$work harness_py summary
  exit 0
fi

# ---------------------------------------------------------------------------
# Sources and builds.
[ -n "$src" ] || die "--src DIR is required"
[ -d "$src" ] || die "--src $src: no such directory"
src=$(realpath "$src")

copy_source() {  # copy_source DEST: the sources without .git
  local dest=$1
  mkdir -p "$dest"
  if [ -f "$src/mpi_test_suite.c" ]; then
    tar -C "$src" --exclude=.git -cf - . | tar -C "$dest" -xf -
  elif git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    git --git-dir="$src" archive HEAD | tar -x -C "$dest"
  else
    die "--src $src is neither an mpi-test-suite tree (mpi_test_suite.c) nor its git repository"
  fi
  [ -f "$dest/mpi_test_suite.c" ] || die "$src does not hold the mpi-test-suite sources"
}

# Which sources a build was made from: a git repository's HEAD, else the
# names, sizes and times of the tree's files.
source_id() {
  if [ ! -f "$src/mpi_test_suite.c" ]; then
    git --git-dir="$src" rev-parse HEAD
  else
    (cd "$src" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | sort | md5sum | cut -d' ' -f1)
  fi
}

# The tools' fingerprint for the tucana build: a changed translator or
# Tucana header means the objects must be compiled again.
tucana_fingerprint() {
  {
    md5sum "$tucana_bin/tucanacc" "$tucana_bin/tucana-translate"
    find "$project/runtime/mpi-include" "$project/runtime/include" -type f -exec md5sum {} + 2>/dev/null | sort
  } | md5sum | cut -d' ' -f1
}

build_suite() {  # build_suite native|tucana
  local kind=$1 dir=$work/build-$1 cc log
  log=$work/build-$kind.log
  if [ "$kind" = native ]; then
    cc=$(command -v mpicc) || die "mpicc not found (Open MPI's compiler wrapper)"
    command -v mpirun >/dev/null || die "mpirun not found"
  else
    cc=$tucana_bin/tucanacc
    [ -x "$cc" ] || die "$cc not found: build Tucana first (or give --tucana-bin)"
    [ -x "$tucana_bin/tucana-run" ] || die "$tucana_bin/tucana-run not found"
  fi
  local sid
  sid=$(source_id)
  if [ "$rebuild" = 1 ] || [ ! -f "$dir/mpi_test_suite.c" ] || [ "$(cat "$dir/.source-id" 2>/dev/null)" != "$sid" ]; then
    rm -rf "$dir"
    copy_source "$dir"
    echo "$sid" >"$dir/.source-id"
    # The one change (see the top): each rank's failure line at "-r run" too.
    perl -0pi -e 's/if \(tst_report >= TST_REPORT_FULL\)(\s*printf \("ERROR test:)/if (tst_report >= TST_REPORT_RUN)$1/' \
      "$dir/tst_tests.c"
    grep -q 'TST_REPORT_RUN)' "$dir/tst_tests.c" ||
      note "warning: could not patch tst_tests.c: only rank 0's failures will be seen"
  fi
  : >"$log"
  if [ ! -x "$dir/configure" ]; then
    command -v autoreconf >/dev/null || die "autoreconf not found (apt-get install autoconf automake libtool)"
    note "$kind: autogen"
    (cd "$dir" && ./autogen.sh) >>"$log" 2>&1 || { tail -30 "$log"; die "$kind: autogen failed ($log)"; }
  fi
  if [ ! -f "$dir/cmdline.c" ]; then
    command -v gengetopt >/dev/null || die "gengetopt not found (apt-get install gengetopt); a git checkout needs it"
  fi
  local confopts=(--disable-mpi4-partitioned-p2p)
  if [ ! -f "$dir/Makefile" ]; then
    note "$kind: configure CC=$cc"
    if ! (cd "$dir" && ./configure CC="$cc" "${confopts[@]}") >>"$log" 2>&1; then
      if [ "$kind" = tucana ] && grep -q 'MPI compiler required' "$log"; then
        note "tucana: configure's MPI check (it links 'char MPI_Init();' without <mpi.h>) fails with tucanacc;"
        note "tucana: configuring with mpicc instead and building with make CC=tucanacc"
        (cd "$dir" && ./configure CC="$(command -v mpicc)" "${confopts[@]}") >>"$log" 2>&1 ||
          { tail -30 "$log"; die "tucana: configure failed ($log)"; }
      else
        tail -30 "$log"
        die "$kind: configure failed ($log)"
      fi
    fi
  fi
  if [ "$kind" = tucana ]; then
    local fp
    fp=$(tucana_fingerprint)
    if [ "$(cat "$dir/.tucana-fingerprint" 2>/dev/null)" != "$fp" ]; then
      make -C "$dir" clean >>"$log" 2>&1 || true
    fi
    # Relink when Tucana's runtime libraries are newer than the binary.
    local libdir newer=""
    for libdir in $("$cc" -showme:libdirs); do
      [ -f "$dir/mpi_test_suite" ] && newer+=$(find "$libdir" -maxdepth 1 -name 'lib*' -newer "$dir/mpi_test_suite" 2>/dev/null)
    done
    [ -n "$newer" ] && rm -f "$dir/mpi_test_suite"
  fi
  note "$kind: make -j$jobs CC=$cc"
  make -C "$dir" -j"$jobs" CC="$cc" >>"$log" 2>&1 || { grep -E 'error|Error' "$log" | tail -20; die "$kind: build failed ($log)"; }
  [ -x "$dir/mpi_test_suite" ] || die "$kind: no mpi_test_suite after make ($log)"
  [ "$kind" = tucana ] && tucana_fingerprint >"$dir/.tucana-fingerprint"
  return 0
}

[ "$need_native" = 1 ] && build_suite native
[ "$need_tucana" = 1 ] && build_suite tucana

# ---------------------------------------------------------------------------
# Runs.
launcher_for() {  # prints the launcher words, one a line
  local layout=$1 p
  case "$layout" in
    native) printf '%s\n' mpirun --oversubscribe "${mca[@]}" -np "$np" ;;
    shared)
      p=1
      [ "$np" -ge 2 ] && p=2
      printf '%s\n' "$tucana_bin/tucana-run" -np "$p" --vranks "$np" "${mca[@]}" ;;
    single) printf '%s\n' "$tucana_bin/tucana-run" -np "$np" --vf 1 "${mca[@]}" ;;
  esac
}

for layout in "${layout_list[@]}"; do
  kind=tucana
  [ "$layout" = native ] && kind=native
  mapfile -t launcher < <(launcher_for "$layout")
  note "$layout: $(printf '%q ' "${launcher[@]}")./mpi_test_suite -t ... (np $np)"
  H_WORK=$work H_LAYOUT=$layout H_BIN=$work/build-$kind/mpi_test_suite \
    H_LAUNCHER=$(IFS=$'\x1f'; echo "${launcher[*]}") \
    H_TESTS=$tests H_COMMS=$comms H_TYPES=$datatypes H_IO_TYPES=$io_datatypes H_NVALUES=$num_values H_MODE=$mode \
    H_TIMEOUT=$timeout H_JOB_LIMIT=$job_limit H_MAX_TIMEOUTS=$max_timeouts harness_py run
done

H_WORK=$work harness_py summary
