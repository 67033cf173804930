#!/usr/bin/python3
"""Self-checks of advise_eval.py: parsing tucana-advise's report and check
JSON (recorded samples in data/advise/), matching hot sites to verdicts,
speedups and the table, the clear failure when a tool is missing, and --
when BUILD (argument or $TUCANA_BUILD) has tucanacc and tucana-run -- one
--quick run of ft and irregular with a stand-in tucana-advise
(fake_advise.py): ft safe, rewritten, built and timed; irregular unsafe and
recorded so.

    /usr/bin/python3 bench/harness/tests/test_advise_eval.py [BUILD]
"""

import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.dirname(TESTS)
sys.path.insert(0, HARNESS)
import advise_eval as ae  # noqa: E402

DATA = os.path.join(TESTS, "data", "advise")
SCRIPT = os.path.join(HARNESS, "advise_eval.py")
FAKE = os.path.join(TESTS, "fake_advise.py")
BUILD = os.environ.get("TUCANA_BUILD", "")
if __name__ == "__main__" and len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
    BUILD = os.path.abspath(sys.argv.pop(1))


def sample(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


class Report(unittest.TestCase):
    def test_ft(self):
        r = ae.parse_report(sample("report_ft.json"))
        self.assertEqual(r["ranks"], 2)
        self.assertAlmostEqual(r["comm_measured_s"], 4.3102)
        self.assertEqual([s["site"] for s in r["by_model"]], ["ft.c:388"])
        self.assertEqual([s["site"] for s in r["by_measurement"]], ["ft.c:388"])
        # ordered by measured time
        self.assertEqual([s["site"] for s in r["sites"]], ["ft.c:388", "ft.c:450", "ft.c:395"])
        self.assertEqual(ae.seconds_of(ae.hot_sites(r)), (4.1102, 4.3001))

    def test_disagreeing_selections(self):
        r = ae.parse_report(sample("report_irregular.json"))
        self.assertEqual(ae.sites_text(r["by_model"]),
                         "irregular.c:448 MPI_Waitall, irregular.c:442 MPI_Isend")
        self.assertEqual(ae.sites_text(r["by_measurement"]), "irregular.c:448 MPI_Waitall")
        self.assertEqual(len(ae.hot_sites(r)), 2)

    def test_line_from_site_name(self):
        r = ae.parse_report(json.dumps({"sites": [{"site": "a.c:17", "call": "MPI_Send",
                                                   "measured_s": 1, "modelled_s": 2}]}))
        self.assertEqual(r["sites"][0]["line"], 17)
        self.assertEqual((r["by_model"], r["by_measurement"]), ([], []))

    def test_malformed(self):
        for text in ("", "not json", "[]", '{"sites": 3}', '{"sites": [{"line": 3}]}'):
            with self.assertRaises(ValueError, msg=text):
                ae.parse_report(text)


class Check(unittest.TestCase):
    def test_ft_safe(self):
        checked = ae.parse_check(sample("check_ft.json"))
        self.assertEqual(len(checked), 1)
        self.assertEqual((checked[0]["line"], checked[0]["loop_line"], checked[0]["loop_var"]),
                         (388, 384, "iter"))
        self.assertEqual(checked[0]["replicate"], ["sendbuf", "recvbuf"])
        vs = ae.verdicts(ae.parse_report(sample("report_ft.json")), checked, "ft.c")
        self.assertEqual([(v["site"], v["verdict"]) for v in vs], [("ft.c:388", "safe")])
        self.assertEqual(ae.verdict_text(vs), "safe")
        self.assertTrue(ae.rewritable(vs))

    def test_irregular_unsafe(self):
        checked = ae.parse_check(sample("check_irregular.json"))
        vs = ae.verdicts(ae.parse_report(sample("report_irregular.json")), checked, "irregular.c")
        self.assertEqual([v["verdict"] for v in vs], ["unsafe", "unsafe"])
        self.assertEqual(ae.verdict_text(vs), "unsafe: Comm(i) writes x, which After(i-1) reads")
        self.assertFalse(ae.rewritable(vs))

    def test_matching(self):
        checked = ae.parse_check(sample("check_irregular.json"))
        # the report's Isend at 442, the AST's at 443: the same call nearby
        c, why = ae.match_site({"site": "irregular.c:442", "line": 442, "call": "MPI_Isend"},
                               checked, "irregular.c")
        self.assertEqual((c["line"], why), (443, ""))
        # not the same call, but inside the loop check gave a verdict for (a
        # post or wait of the same Comm(i), reported once): that verdict
        c, why = ae.match_site({"site": "irregular.c:444", "line": 444, "call": "MPI_Send"},
                               checked, "irregular.c")
        self.assertEqual((c["loop_line"], c["verdict"], why), (431, "unsafe", ""))
        # outside every analysed loop: no match
        c, why = ae.match_site({"site": "irregular.c:500", "line": 500, "call": "MPI_Send"},
                               checked, "irregular.c")
        self.assertIsNone(c)
        self.assertIn("no loop", why)
        c, why = ae.match_site({"site": "other.c:448", "file": "/x/other.c", "line": 448,
                                "call": "MPI_Waitall"}, checked, "irregular.c")
        self.assertIsNone(c)
        self.assertIn("other.c", why)
        c, why = ae.match_site({"site": "libfoo.so+4096", "file": None, "line": None,
                                "call": "MPI_Allreduce"}, checked, "irregular.c")
        self.assertIsNone(c)
        self.assertIn("debug info", why)

    def test_mixed_and_empty(self):
        vs = [{"site": "a.c:1", "call": "MPI_Send", "verdict": "safe", "reasons": []},
              {"site": "a.c:9", "call": "MPI_Recv", "verdict": "unsupported", "reasons": ["goto"]}]
        self.assertEqual(ae.verdict_text(vs), "a.c:1 safe; a.c:9 unsupported: goto")
        self.assertTrue(ae.rewritable(vs))
        self.assertEqual(ae.verdict_text([]), "no hot site")
        self.assertFalse(ae.rewritable([]))

    def test_malformed(self):
        for text in ("{", '{"file": "a.c"}', '{"loops": [{"sites": [{"line": 3}]}]}'):
            with self.assertRaises(ValueError, msg=text):
                ae.parse_check(text)


def run_row(program, variant, vf, rep, seconds, checksum="42", status="ok"):
    return {"program": program, "network_name": "1gbit", "variant": variant, "np": 2,
            "vf": vf or "", "rep": rep, "seconds": f"{seconds:.6f}", "status": status,
            "ranks": 2 * (vf or 1), "checksum": checksum, "main": 1}


class Table(unittest.TestCase):
    def rows(self):
        rows = []
        for rep, jitter in ((1, 0.0), (2, 0.1), (3, -0.05)):
            rows += [run_row("ft", "original", None, rep, 2.0 + jitter),
                     run_row("ft", "cco", None, rep, 1.6 + jitter),
                     run_row("ft", "advise-tucana", 2, rep, 1.9 + jitter),
                     run_row("ft", "advise-tucana", 4, rep, 1.25 + jitter),
                     run_row("jacobi3d", "original", None, rep, 3.0 + jitter),
                     run_row("jacobi3d", "overlap", None, rep, 2.0 + jitter),
                     run_row("jacobi3d", "tucana", 2, rep, 2.5 + jitter),
                     # fastest, but a wrong result: no speedup
                     run_row("jacobi3d", "tucana", 4, rep, 1.0 + jitter, checksum="41")]
        return rows

    def test_speedups(self):
        timing = ae.summarize_runs(self.rows())
        ft = timing[("ft", "1gbit")]
        self.assertAlmostEqual(ft["original"], 2.0)
        self.assertAlmostEqual(ft["variants"]["cco"][0], 1.6)
        self.assertEqual(ft["variants"]["advise-tucana"][:2], (1.25, 4))
        j = timing[("jacobi3d", "1gbit")]
        self.assertEqual(j["variants"]["tucana"][:2], (2.5, 2))
        self.assertIn("checksum differs", j["variants"]["tucana"][2])

        analysis = {("ft", "1gbit"): {"report": ae.parse_report(sample("report_ft.json")),
                                      "verdict": "safe", "note": ""},
                    ("jacobi3d", "1gbit"): {"report": None, "verdict": "unsafe: x", "note": ""}}
        rows = ae.table_rows(analysis, timing, ["ft", "jacobi3d"], ["1gbit"])
        ft_row, j_row = rows
        self.assertEqual(ft_row["speedup_cco_pct"], "25.0")            # 2.0 / 1.6 - 1
        self.assertEqual((ft_row["speedup_annotation_pct"], ft_row["annotation_vf"]), ("60.0", 4))
        self.assertEqual((ft_row["hot_model"], ft_row["same_selection"]), ("ft.c:388 MPI_Alltoall", "yes"))
        self.assertEqual((ft_row["modelled_s"], ft_row["measured_s"]), ("4.1102", "4.3001"))
        self.assertEqual(ft_row["best_existing"], "")
        self.assertEqual(j_row["best_existing"], "overlap 50.0%")      # 3.0 / 2.0 - 1
        self.assertEqual((j_row["speedup_cco_pct"], j_row["verdict"]), ("", "unsafe: x"))
        self.assertIn("checksum differs", j_row["note"])
        md = "\n".join(ae.md_table(rows))
        self.assertIn("| ft | 1gbit | ft.c:388 MPI_Alltoall | ft.c:388 MPI_Alltoall | 4.1102 | 4.3001 | safe "
                      "| 25.0 | 60.0 (VF 4) | n/a | - |", md)
        self.assertIn("| jacobi3d | 1gbit | n/a | n/a | n/a | n/a | unsafe: x | n/a | n/a | n/a | overlap 50.0% |", md)

    def test_failed_runs_give_no_speedup(self):
        rows = [run_row("is", "original", None, 1, 2.0), run_row("is", "cco", None, 1, 1.0, status="failed")]
        t = ae.summarize_runs(rows)[("is", "1gbit")]
        self.assertIsNone(t["variants"]["cco"][0])
        self.assertIn("not ok", t["variants"]["cco"][2])


class Cli(unittest.TestCase):
    def test_help(self):
        r = subprocess.run([sys.executable, SCRIPT, "--help"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn("--analysis-only", r.stdout)

    def test_missing_tool_fails_clearly(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, SCRIPT, "--build", tmp, "--programs", "ft",
                                "--advise", os.path.join(tmp, "no-such-advise"), "--out", tmp],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn("missing tool(s)", r.stderr)
            self.assertIn("no-such-advise", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "advise_eval.md")))

    def test_unknown_program(self):
        r = subprocess.run([sys.executable, SCRIPT, "--programs", "nosuch", "--out", "/nonexistent"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown program 'nosuch'", r.stderr)


@unittest.skipUnless(BUILD and all(os.access(os.path.join(BUILD, "bin", t), os.X_OK)
                                   for t in ("tucanacc", "tucana-run")),
                     "no BUILD with tucanacc and tucana-run")
class EndToEnd(unittest.TestCase):
    """ft (safe: rewritten by the stand-in, built, timed) and irregular
    (unsafe: recorded, no CCO) through the whole pipeline, --quick."""

    def run_eval(self, tmp, extra_env=None, programs="ft,irregular"):
        log = os.path.join(tmp, "advise.log")
        env = dict(os.environ, FAKE_ADVISE_LOG=log, **(extra_env or {}))
        r = subprocess.run([sys.executable, SCRIPT, "--build", BUILD, "--advise", FAKE,
                            "--programs", programs, "--quick", "--rate", "unthrottled",
                            "--no-plots", "--out", os.path.join(tmp, "out")],
                           capture_output=True, text=True, env=env, timeout=900)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-3000:])
        with open(os.path.join(tmp, "out", "advise_eval.csv")) as f:
            rows = {row["program"]: row for row in csv.DictReader(f)}
        with open(log) as f:
            calls = [json.loads(line) for line in f]
        with open(os.path.join(tmp, "out", "results.csv")) as f:
            runs = list(csv.DictReader(f))
        return rows, calls, runs

    def test_ft_and_irregular(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows, calls, runs = self.run_eval(tmp)
            ft, irr = rows["ft"], rows["irregular"]
            self.assertEqual(ft["verdict"], "safe")
            # the stand-in's rewrite is the original itself: same checksum, a speedup of some value
            self.assertNotEqual(ft["speedup_cco_pct"], "")
            self.assertNotEqual(ft["speedup_annotation_pct"], "")
            self.assertEqual(ft["annotation_vf"], "2")
            self.assertTrue(irr["verdict"].startswith("unsafe: Comm(i) writes x"), irr["verdict"])
            self.assertEqual((irr["speedup_cco_pct"], irr["speedup_annotation_pct"]), ("", ""))
            irr_bin = os.path.join(BUILD, "bench", "programs", "irregular", "irregular.")
            existing = {v for v in ("overlap", "tucana") if os.access(irr_bin + v, os.X_OK)}
            # its hand-written variants ran (those built)
            self.assertEqual(bool(irr["best_existing"]), bool(existing), irr)
            self.assertEqual(irr["hot_measured"], "irregular.c:448 MPI_Waitall")
            cmds = [c[0] for c in calls]
            self.assertEqual(cmds.count("calibrate"), 1)                 # once per network
            self.assertEqual(cmds.count("profile"), 2)
            self.assertEqual(cmds.count("rewrite"), 2)                    # ft only: --mpi, --tucana
            rw = [c for c in calls if c[0] == "rewrite"]
            self.assertEqual(sorted(c[1] for c in rw), ["--mpi", "--tucana"])
            for c in rw:
                self.assertIn("--profile", c)
                self.assertTrue(any(a.startswith("-I") for a in c[c.index("--"):]), c)
            prof = [c for c in calls if c[0] == "profile"][0]
            launcher = prof[prof.index("--") + 1:]
            self.assertEqual(launcher[:3], ["mpirun", "-np", "2"])
            self.assertTrue(launcher[-5].endswith("ft.original"), launcher)
            self.assertEqual(launcher[-4:], ["64", "64", "64", "4"])
            variants = {(r["program"], r["variant"]) for r in runs if r["status"] == "ok"}
            virt = {("irregular", "virtualized")} if os.access(irr_bin + "virtualized", os.X_OK) else set()
            self.assertEqual(variants, {("ft", "original"), ("ft", "cco"), ("ft", "advise-tucana"),
                                        ("ft", "virtualized"), ("irregular", "original")}
                             | {("irregular", v) for v in existing} | virt)
            self.assertNotEqual(ft["speedup_virtualized_pct"], "")
            self.assertEqual(len({r["checksum"] for r in runs if r["program"] == "ft"}), 1)

    def test_rewrite_failure_is_recorded(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows, calls, runs = self.run_eval(tmp, {"FAKE_ADVISE_FAIL_REWRITE": "1"}, programs="ft")
            self.assertEqual(rows["ft"]["verdict"], "safe")
            self.assertEqual(rows["ft"]["speedup_cco_pct"], "")
            self.assertIn("rewrite --mpi failed: tucana-advise: rewrite: cannot do this", rows["ft"]["note"])
            self.assertEqual({r["variant"] for r in runs}, {"original", "virtualized"})

    def test_nothing_rewritten_is_no_variant(self):
        # a rewrite that exits 0 but transforms no loop (the real tool's
        # "not rewritten" note) must not be timed as if it were one
        with tempfile.TemporaryDirectory() as tmp:
            rows, calls, runs = self.run_eval(tmp, {"FAKE_ADVISE_NOTHING_REWRITTEN": "1"}, programs="ft")
            self.assertEqual(rows["ft"]["speedup_cco_pct"], "")
            self.assertIn("rewrite --mpi: nothing rewritten (MPI_X at line 1: Before or After calls X)", rows["ft"]["note"])
            self.assertEqual({r["variant"] for r in runs}, {"original", "virtualized"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
