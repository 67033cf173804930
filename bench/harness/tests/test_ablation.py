#!/usr/bin/python3
"""Self-checks of ablation.py: how the steps accumulate, the table (best VF,
hidden %, delta), and --dry-run.  No benchmark program runs.

    /usr/bin/python3 bench/harness/tests/test_ablation.py
"""

import argparse
import os
import subprocess
import sys
import tempfile
import unittest

HARNESS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HARNESS)
import ablation as ab  # noqa: E402

DEFAULT_STEPS = os.path.join(HARNESS, "ablation_steps.json")


def by_label(resolved):
    return {r["label"]: r for r in resolved}


class Steps(unittest.TestCase):
    def test_variant_built_from_another_file_is_available(self):
        # stencil13's directional variant is its annotated file (no
        # stencil13_directional.c): the step must not be skipped.
        self.assertEqual(ab.variant_source("stencil13", "directional"), "stencil13_annotated.c")
        opts = argparse.Namespace(bin_map={})
        self.assertEqual(ab.make_available("stencil13", opts)("directional"), "")
        self.assertNotEqual(ab.make_available("cannon", opts)("directional"), "")

    def test_default_chain(self):
        steps = ab.load_steps(DEFAULT_STEPS)
        # a program with a hybrid variant but no explicit/directional graph
        res = by_label(ab.resolve_steps(steps, lambda v: "" if v in ("tucana", "hybrid") else "no " + v))
        t2 = res["Toucan VF 2"]
        self.assertEqual((t2["variant"], t2["vfs"], t2["base"]), ("tucana", [2], None))
        self.assertEqual(ab.options_text(t2["options"]),
                         "--boundary off --priority-scope worker --pack locked --wake home")
        best = res["best VF"]
        self.assertEqual((best["variant"], best["vfs"], best["base"]), ("tucana", [2, 4, 8], "Toucan VF 2"))
        self.assertEqual(best["options"], t2["options"])
        hy = res["hybrid"]
        self.assertEqual((hy["variant"], hy["vfs"], hy["branch"]), ("hybrid", [2, 4, 8], True))
        # the branch is not built on: boundary first inherits tucana from best VF
        bf = res["+ boundary first"]
        self.assertEqual((bf["variant"], bf["vfs"], bf["base"]), ("tucana", [2, 4, 8], "best VF"))
        self.assertEqual(ab.options_text(bf["options"]),
                         "--boundary first --priority-scope process --pack locked --wake home")
        sp = res["+ split packing"]
        self.assertEqual(sp["options"]["--pack"], "split")
        self.assertEqual(sp["options"]["--boundary"], "first")  # accumulated
        self.assertTrue(res["+ explicit graph"]["skipped"])
        self.assertTrue(res["+ directional graph"]["skipped"])
        # skipped steps are not built on either
        wc = res["+ wake waker"]
        self.assertEqual((wc["variant"], wc["base"]), ("tucana", "+ split packing"))
        self.assertEqual(ab.options_text(wc["options"]),
                         "--boundary first --priority-scope process --pack split --wake waker")

    def test_toucan_first_then_inherited(self):
        # a program with the Toucan form: the first step runs it, and the
        # steps that name no variant continue with it
        steps = ab.load_steps(DEFAULT_STEPS)
        self.assertEqual(steps[0]["variant"], ["toucan", "tucana"])
        res = by_label(ab.resolve_steps(steps, lambda v: "" if v in ("toucan", "tucana", "explicit")
                                        else "no " + v))
        self.assertEqual((res["Toucan VF 2"]["variant"], res["Toucan VF 2"]["skipped"]), ("toucan", ""))
        for label in ("best VF", "+ boundary first", "+ split packing"):
            self.assertEqual(res[label]["variant"], "toucan", label)
        self.assertEqual(res["+ explicit graph"]["variant"], "explicit")
        self.assertTrue(res["+ directional graph"]["skipped"])
        self.assertEqual((res["+ wake waker"]["variant"], res["+ wake waker"]["base"]),
                         ("explicit", "+ explicit graph"))

    def test_candidates(self):
        steps = [{"label": "a", "variant": ["x", "y", "z"], "vf": [2]},
                 {"label": "b", "vf": [2, 4]},
                 {"label": "c", "variant": ["w", "z"]}]
        # the first candidate, in the step's order, that the program has
        res = by_label(ab.resolve_steps(steps, lambda v: "" if v in ("z", "y") else "no " + v))
        self.assertEqual([res[k]["variant"] for k in "abc"], ["y", "y", "z"])
        self.assertEqual(res["c"]["base"], "b")
        # none of them: skipped with every reason, and nothing to inherit
        res = by_label(ab.resolve_steps(steps, lambda v: "no " + v))
        self.assertEqual((res["a"]["variant"], res["a"]["skipped"]), ("x|y|z", "no x; no y; no z"))
        self.assertEqual((res["b"]["skipped"], res["b"]["base"]), ("no variant to inherit", None))
        self.assertEqual(res["c"]["skipped"], "no w; no z")
        # a skipped candidate list is not built on: c inherits nothing from a
        res = by_label(ab.resolve_steps(steps, lambda v: "" if v == "w" else "no " + v))
        self.assertTrue(res["a"]["skipped"] and res["b"]["skipped"])
        self.assertEqual((res["c"]["variant"], res["c"]["vfs"], res["c"]["base"]), ("w", [], None))

    def test_graph_variants_inherited(self):
        steps = ab.load_steps(DEFAULT_STEPS)
        res = by_label(ab.resolve_steps(steps, lambda v: "" if v != "hybrid" else "no hybrid"))
        self.assertTrue(res["hybrid"]["skipped"])
        self.assertEqual(res["+ directional graph"]["base"], "+ explicit graph")
        self.assertEqual(res["+ wake waker"]["variant"], "directional")
        self.assertEqual(res["+ wake waker"]["vfs"], [2, 4, 8])

    def test_unset_and_override(self):
        steps = [{"label": "a", "variant": "tucana", "vf": [4], "options": "--x 1 --y=2 --flag"},
                 {"label": "b", "options": "--x 3", "unset": ["--flag"]},
                 {"label": "c", "variant": "virtualized", "vf": [1, 2]}]
        res = by_label(ab.resolve_steps(steps, lambda v: ""))
        self.assertEqual(ab.options_text(res["a"]["options"]), "--x 1 --y 2 --flag")
        self.assertEqual(ab.options_text(res["b"]["options"]), "--x 3 --y 2")
        self.assertEqual((res["c"]["variant"], res["c"]["vfs"]), ("virtualized", [1, 2]))
        self.assertEqual(res["c"]["options"], res["b"]["options"])

    def test_bad_steps(self):
        with self.assertRaises(ValueError):
            ab.parse_options("boundary first")
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write('{"steps": [{"label": "a", "vf": [2]}]}')  # no variant
        try:
            with self.assertRaises(ValueError):
                ab.load_steps(f.name)
        finally:
            os.unlink(f.name)
        for variant in ('[]', '[""]', '["toucan", 2]', '2', '{"a": 1}'):
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                f.write('{"steps": [{"label": "a", "variant": %s, "vf": [2]}]}' % variant)
            try:
                with self.assertRaises(ValueError, msg=variant):
                    ab.load_steps(f.name)
            finally:
                os.unlink(f.name)


def fake_opts(**kw):
    o = argparse.Namespace(programs_list=["jacobi3d"], args_map={"jacobi3d": "8 8 8 2 1"}, quick=False,
                           ref_options=None, ref_vf_list=[2, 4], bin_map={}, rates=["1gbit"],
                           stat="median", np=2, np_map={})
    for k, v in kw.items():
        setattr(o, k, v)
    return o


class Table(unittest.TestCase):
    def test_best_vf_hidden_and_delta(self):
        steps = [{"label": "base", "variant": "tucana", "vf": [2], "options": "--boundary off"},
                 {"label": "sweep", "vf": [2, 4]},
                 {"label": "side", "variant": "hybrid", "tasks": [2], "branch": True},
                 {"label": "+ first", "options": "--boundary first"},
                 {"label": "+ graph", "variant": "nosuch"}]
        opts = fake_opts()
        plan, by_id = ab.make_plan(opts, steps)
        p = plan["jacobi3d"]
        self.assertTrue(by_label(p["steps"])["+ graph"]["skipped"])
        # base and sweep share their VF 2 run
        self.assertEqual(p["step_cfgs"]["base"][0], p["step_cfgs"]["sweep"][0])
        times = {("original", None, ""): 2.0, ("nocomm", None, ""): 1.0, ("overlap", None, ""): 1.2,
                 ("virtualized", 2, "--boundary off"): 1.7, ("virtualized", 4, "--boundary off"): 1.6,
                 ("tucana", 2, "--boundary off"): 1.8, ("tucana", 4, "--boundary off"): 1.5,
                 ("hybrid", 2, "--boundary off"): 1.4,
                 ("tucana", 2, "--boundary first"): 1.3, ("tucana", 4, "--boundary first"): 1.35}
        rows = []
        for cid in p["cids"]:
            c = by_id[cid]
            t = times[(c.variant, c.v, c.options)]
            for rep, d in enumerate((-0.01, 0.0, 0.01), 1):  # median = t
                rows.append({"program": "jacobi3d", "rate": "1gbit", "config": cid, "variant": c.variant,
                             "np": 2, "vf": c.v or "", "rep": rep, "seconds": f"{t + d:.6f}", "status": "ok",
                             "ranks": 2 * (c.v or 1), "checksum": "42", "main": 1})
        summary = ab.summarize(opts, plan, by_id, rows)
        s = {r["step"]: r for r in summary}
        self.assertEqual((s["base"]["vf"], s["base"]["hidden_pct"]), (2, "20.0"))
        self.assertEqual((s["sweep"]["vf"], s["sweep"]["hidden_pct"], s["sweep"]["delta_hidden"]),
                         (4, "50.0", "+30.0"))
        self.assertEqual(s["sweep"]["sweep"], "2:1.8000 4:1.5000")
        self.assertEqual((s["side"]["hidden_pct"], s["side"]["delta_hidden"]), ("60.0", "+10.0"))
        self.assertIn("branch", s["side"]["note"])
        # + first builds on sweep, not on the side branch
        self.assertEqual((s["+ first"]["vf"], s["+ first"]["hidden_pct"], s["+ first"]["delta_hidden"],
                          s["+ first"]["base"]), (2, "70.0", "+20.0", "sweep"))
        self.assertEqual(s["+ graph"]["kind"], "skipped")
        self.assertEqual((s["virtualized (best VF)"]["vf"], s["virtualized (best VF)"]["hidden_pct"]),
                         (4, "40.0"))
        self.assertEqual(s["overlap"]["hidden_pct"], "80.0")
        self.assertIn("communication = 50.0%", s["nocomm"]["note"])
        self.assertFalse(any("checksum" in r["note"] for r in summary))
        md = "\n".join(ab.md_tables(summary, opts.rates))
        self.assertIn("| + first | tucana | 2 | 1.300000 | 70.0 | +20.0 | sweep |", md)
        self.assertIn("| overlap | - | 1.200000 | 80.0 |", md)
        self.assertIn("- + first: `--boundary first`", md)

        # a variant whose checksum differs from the Original's is flagged
        for r in rows:
            if by_id[r["config"]].options == "--boundary first" and r["vf"] == 2:
                r["checksum"] = "43"
        s = {r["step"]: r for r in ab.summarize(opts, plan, by_id, rows)}
        self.assertIn("checksum differs from Original", s["+ first"]["note"])


class DryRun(unittest.TestCase):
    def test_dry_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, os.path.join(HARNESS, "ablation.py"), "--build", os.path.join(tmp, "b"),
                   "--dry-run", "--rate", "shm", "--reps", "2", "--programs", "jacobi3d",
                   "--nocomm-lib", "/bin/true", "--out", os.path.join(tmp, "out")]
            for v in ("original", "overlap", "tucana", "virtualized", "hybrid", "explicit", "directional"):
                cmd += ["--bin", f"{v}=/bin/true"]
            # the Toucan form under another path, to tell its runs apart
            toucan = os.path.join(tmp, "toucan")
            os.symlink("/bin/true", toucan)
            cmd += ["--bin", f"toucan={toucan}"]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        runs = [line for line in out.splitlines()
                if ("/bin/true" in line or toucan in line) and not line.startswith(" ")]
        # per repetition: 3 native, 3 virtualized and 21 configurations of the
        # steps (Toucan VF 2 shares best VF's VF 2; each later step has 3 VFs)
        self.assertEqual(len(runs), 2 * 9 * 3, out)
        # toucan: Toucan VF 2 / best VF (3 VFs), boundary first and split packing
        toucan_runs = [r for r in runs if toucan in r]
        self.assertEqual(len(toucan_runs), 2 * 3 * 3, out)
        self.assertEqual(sum("--pack split" in r for r in toucan_runs), 2 * 3)
        self.assertEqual(sum("--pack locked" in r and "--boundary off" in r for r in toucan_runs), 2 * 3)
        self.assertIn("Toucan VF 2: toucan VF 2 [", out)
        self.assertIn("+ split packing: toucan VF 2,4,8", out)
        self.assertEqual(sum("--wake waker" in r for r in runs), 2 * 3)
        self.assertEqual(sum("--tasks" in r for r in runs), 2 * 3)
        self.assertTrue(all("--boundary" not in r for r in runs if r.startswith("mpirun")))
        self.assertIn("+ directional graph: directional VF 2,4,8", out)

    def test_subrank_layout(self):
        # The subrank runs at VF >= 2 get the program's virtual_args (the
        # subranks tile the process boundary); native and hybrid runs, and
        # VF 1, keep the slab arguments.
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, os.path.join(HARNESS, "ablation.py"), "--build", os.path.join(tmp, "b"),
                   "--dry-run", "--rate", "shm", "--reps", "1", "--programs", "jacobi3d", "--subrank-layout",
                   "--nocomm-lib", "/bin/true", "--out", os.path.join(tmp, "out")]
            for v in ("original", "overlap", "tucana", "virtualized", "hybrid", "explicit", "directional", "toucan"):
                cmd += ["--bin", f"{v}=/bin/true"]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        runs = [line for line in out.splitlines() if "/bin/true" in line and not line.startswith(" ")]
        slab, tiled = "256 256 128 100 1", "256 256 128 100 2"
        for r in runs:
            subranks = "--vf" in r and "--vf 1 " not in r
            self.assertTrue(r.endswith(tiled if subranks else slab), r)
        self.assertTrue(any(r.endswith(tiled) for r in runs))
        self.assertTrue(any("--tasks" in r and r.endswith(slab) for r in runs))


if __name__ == "__main__":
    unittest.main(verbosity=1)
