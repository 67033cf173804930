#!/usr/bin/env bash
# tucana-advise profile under tucana-run: a tucanacc program linked with
# libtucana_advise_tucana.a is profiled per subrank (4 subranks on 2
# processes here, each with its own sites), and a wait's time goes to the
# posts of the requests it completed.
# Usage: advise_tucana_test.sh BIN_DIR MPIEXEC ADVISE_TEST ARCHIVE
. "$(dirname "${BASH_SOURCE[0]}")/advise_common.sh" "$@"
archive=$4

check "advise_test links with the profiler archive through tucanacc" \
  "$bin/tucanacc" -g -O1 "$src" "$archive" -o app
check "profile -- tucana-run -np 2 --vf 2" \
  "$advise" profile -o t.json -- "$bin/tucana-run" -np 2 --vf 2 ./app 5 64 2 4
sites_ok() {
  python3 - t.json "$line_a" "$line_s" <<'PY'
import json, subprocess, sys
prof = json.load(open(sys.argv[1]))
la, ls = int(sys.argv[2]), int(sys.argv[3])
assert prof["ranks"] == 4 and sorted(r["rank"] for r in prof["per_rank"]) == [0, 1, 2, 3]
for r in prof["per_rank"]:
    calls = {s["call"]: s for s in r["sites"]}
    assert set(calls) == {"MPI_Alltoall", "MPI_Sendrecv", "MPI_Irecv", "MPI_Isend", "MPI_Waitall"}, calls.keys()
    w = calls["MPI_Waitall"]
    assert w["count"] == 4 and calls["MPI_Isend"]["count"] == 4, w
    # Tucana's requests are followed from post to completion too.
    assert abs(w["attributed_s"] - w["time_s"]) <= 1e-9 + 1e-6 * w["time_s"], w
    a, s = calls["MPI_Alltoall"], calls["MPI_Sendrecv"]
    # Per subrank: not the sum of the process's subranks.
    assert a["count"] == 5 and a["bytes"] == 5 * 256 and a["comm_size"] == 4, a
    assert s["count"] == 5 and s["bytes"] == 5 * 8, s
    for site, line in ((a, la), (s, ls)):
        out = subprocess.run(["addr2line", "-e", site["module"], site["offset"]], stdout=subprocess.PIPE, text=True).stdout
        assert out.strip().endswith(f"advise_test.c:{line}"), (out, line)
print("ok")
PY
}
check "every subrank has both sites with lines, counts and bytes" sites_ok
check "the report names the sites by file:line" \
  bash -c "'$advise' report t.json --calibration <(echo '{\"alpha_s\":1e-6,\"beta_s_per_byte\":1e-9}') | grep -q 'advise_test.c:$line_a .*MPI_Alltoall'"
check "a tucanacc program without the profiler: the error says how to link it" \
  bash -c "'$bin/tucanacc' -O1 '$src' -o plain 2>/dev/null && { ! '$advise' profile -- '$bin/tucana-run' -np 2 ./plain 2 2 2 >out.log 2>&1; } && grep -q 'must be linked with the profiler' out.log"
finish
