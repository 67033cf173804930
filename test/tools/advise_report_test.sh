#!/usr/bin/env bash
# tucana-advise calibrate and report: a calibration lands in
# TUCANA_ADVISE_HOME with alpha, beta > 0; the report models each site with
# the formulas of docs/advise.md (checked to the digit on a made-up
# profile), ranks and selects by model and by measurement, and on a real
# profile of advise_test puts the dominating MPI_Alltoall first.
# Usage: advise_report_test.sh BIN_DIR MPIEXEC ADVISE_TEST [ARCHIVE]
. "$(dirname "${BASH_SOURCE[0]}")/advise_common.sh" "$@"
export TUCANA_ADVISE_HOME="$work/home"
host=$(python3 -c 'import socket; print(socket.gethostname().split(".")[0])')

positive() {  # calibration file: alpha > 0 and beta > 0
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); assert c["alpha_s"] > 0 and c["beta_s_per_byte"] > 0, c' "$1"
}
check "calibrate writes this machine's calibration" \
  expect_output "alpha = .* s, beta = .* s/B" "$advise" calibrate --quick
check "... as calibration-$host.json with alpha > 0 and beta > 0" positive "$TUCANA_ADVISE_HOME/calibration-$host.json"
check "calibrate --name NAME -- LAUNCHER" \
  bash -c "'$advise' calibrate --quick --name net2 -- '$mpiexec' ${over[*]} -np 3 && test -s '$TUCANA_ADVISE_HOME/calibration-$host-net2.json'"
check "... on the launcher's ranks" \
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["ranks"] == 3' "$TUCANA_ADVISE_HOME/calibration-$host-net2.json"
check "calibrate -o FILE" bash -c "'$advise' calibrate --quick -o mine.json && test -s mine.json"
check "... alpha > 0, beta > 0" positive mine.json

# A made-up profile of 4 ranks, alpha 1 us, beta 1 ns/B, whose model and
# measurement disagree; its module does not exist (no file:line).
echo '{"alpha_s":1e-6,"beta_s_per_byte":1e-9}' >cal.json
python3 - <<'PY'
import json
sites = [  # call, count, bytes per call, measured s
    ("MPI_Alltoall", 10, 1024, 0.001), ("MPI_Alltoall", 10, 64, 0.00001),
    ("MPI_Sendrecv", 100, 1000, 0.0001), ("MPI_Waitall", 50, 0, 0.0005)]
ranks = [{"rank": r, "world_size": 4, "time_s": 1.0, "sites": [
    {"module": "/nonexistent/app", "offset": hex(0x100 + 16 * i), "call": c, "count": n,
     "bytes": n * b, "time_s": t, "gap_sum_s": 0.01, "gap_min_s": 0.001, "gap_max_s": 0.002,
     "gaps": n - 1, "comm_size": 4} for i, (c, n, b, t) in enumerate(sites)]} for r in range(4)]
json.dump({"format": "tucana-advise-profile-1", "ranks": 4, "per_rank": ranks}, open("made.json", "w"))
PY
model_ok() {
  "$advise" report made.json --calibration cal.json --json >made.out || return 1
  python3 - <<'PY'
import json
rep = json.load(open("made.out"))
s = {x["site"]: x for x in rep["sites"]}
want = {"app+0x100": 10 * (3 * 1e-6 + 4 * 1024 * 1e-9),         # long: (P-1)a + P n b
        "app+0x110": 10 * (2 * 1e-6 + 4 * 64 / 2 * 2 * 1e-9),   # short: log P a + P n/2 log P b
        "app+0x120": 100 * (1e-6 + 1000 * 1e-9),                # a + n b
        "app+0x130": 0.0}                                       # waits: 0
for k, v in want.items():
    assert abs(s[k]["modelled_s"] - v) <= 1e-12 + 1e-9 * v, (k, s[k]["modelled_s"], v)
assert [x["site"] for x in rep["sites"]] == ["app+0x120", "app+0x100", "app+0x110", "app+0x130"]
assert {k for k in s if s[k]["selected_model"]} == {"app+0x120", "app+0x100"}
assert {k for k in s if s[k]["selected_measured"]} == {"app+0x100", "app+0x130"}
assert rep["ranks"] == 4 and abs(rep["comm_time_measured_s"] - 0.00161) < 1e-12
assert s["app+0x100"]["count"] == 10 and s["app+0x100"]["bytes_per_call"] == 1024
print("ok")
PY
}
check "the model's formulas and both selections (80 %)" model_ok
check "--top 1 selects one site by model" bash -c "
  '$advise' report made.json --calibration cal.json --top 1 --json |
  python3 -c 'import json,sys; r=json.load(sys.stdin); assert [s[\"site\"] for s in r[\"sites\"] if s[\"selected_model\"]] == [\"app+0x120\"]'"
check "--percent 100 selects every site with a cost" bash -c "
  '$advise' report made.json --calibration cal.json --percent 100 --json |
  python3 -c 'import json,sys; r=json.load(sys.stdin); assert sum(s[\"selected_model\"] for s in r[\"sites\"]) == 3'"
check "sites without debug info: said once, shown as module+offset" \
  bash -c "'$advise' report made.json --calibration cal.json >table.txt && test \$(grep -c 'without debug info' table.txt) = 1 && grep -q 'app+0x120 ' table.txt"
check "the table shows where model and measurement disagree" \
  grep -q "disagree on: .*app+0x110\|disagree on: .*app+0x130" table.txt

# A real profile: 10 all-to-alls of 32 KiB per pair, 10 one-int exchanges.
check "profile advise_test" "$advise" profile -o real.json -- "$mpiexec" "${over[@]}" -np 4 "$prog" 10 8192 1
check "the report (this machine's calibration) ranks the all-to-all first" bash -c "
  '$advise' report real.json >real.txt && awk '\$1 == 1' real.txt | grep -q 'advise_test.c:$line_a .*MPI_Alltoall .* yes'"
check "report --json parses and has the documented keys" bash -c "
  '$advise' report real.json --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert set(r) == {\"calibration\", \"ranks\", \"comm_time_measured_s\", \"comm_time_modelled_s\", \"sites\"}, r.keys()
assert r[\"ranks\"] == 4 and r[\"calibration\"][\"alpha_s\"] > 0
a = r[\"sites\"][0]
assert a[\"call\"] == \"MPI_Alltoall\" and a[\"line\"] == $line_a and a[\"function\"] == \"main\" and a[\"count\"] == 10
assert a[\"bytes_per_call\"] == 32768 and a[\"selected_model\"] and \"loop_line\" in a
'"
check "--top 1 on the real profile selects the all-to-all alone" bash -c "
  '$advise' report real.json --top 1 --json |
  python3 -c 'import json,sys; r=json.load(sys.stdin); assert [s[\"call\"] for s in r[\"sites\"] if s[\"selected_model\"]] == [\"MPI_Alltoall\"]'"
finish
