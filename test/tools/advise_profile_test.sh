#!/usr/bin/env bash
# tucana-advise profile under the system MPI's launcher: the preloaded
# profiler finds advise_test's two call sites with their lines, counts and
# bytes on every rank, and the driver passes the command's exit status on.
# Usage: advise_profile_test.sh BIN_DIR MPIEXEC ADVISE_TEST [ARCHIVE]
. "$(dirname "${BASH_SOURCE[0]}")/advise_common.sh" "$@"

# Every rank, every site: the right call, line, count and bytes.
# 7 iterations, 100 ints per pair in the all-to-all, 3 ints in the ring.
sites_ok() {  # profile ranks
  python3 - "$1" "$2" "$line_a" "$line_s" <<'PY'
import json, subprocess, sys
prof = json.load(open(sys.argv[1]))
ranks, la, ls = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
assert prof["ranks"] == ranks and len(prof["per_rank"]) == ranks, (prof["ranks"], len(prof["per_rank"]))
for r in prof["per_rank"]:
    calls = {s["call"]: s for s in r["sites"]}
    assert set(calls) == {"MPI_Alltoall", "MPI_Sendrecv"}, calls.keys()
    a, s = calls["MPI_Alltoall"], calls["MPI_Sendrecv"]
    assert a["count"] == 7 and a["bytes"] == 7 * 400 and a["comm_size"] == ranks, a
    assert s["count"] == 7 and s["bytes"] == 7 * 12 and s["gaps"] == 6, s
    for site, line in ((a, la), (s, ls)):
        out = subprocess.run(["addr2line", "-e", site["module"], site["offset"]], stdout=subprocess.PIPE, text=True).stdout
        assert out.strip().endswith(f"advise_test.c:{line}"), (out, line)
    assert r["time_s"] > 0 and a["time_s"] > 0
print("ok")
PY
}
check "profile under $(basename "$mpiexec") -np 4 exits 0" \
  "$advise" profile -o p4.json -- "$mpiexec" "${over[@]}" -np 4 "$prog" 7 100 3
check "the profile has both sites of every rank, with lines, counts and bytes" sites_ok p4.json 4
check "the default profile name is tucana-advise.profile.json" \
  bash -c "'$advise' profile -- '$mpiexec' ${over[*]} -np 2 '$prog' 7 100 3 && test -s tucana-advise.profile.json"
check "a program run without a launcher is profiled too (singleton)" \
  bash -c "'$advise' profile -o p1.json -- '$prog' 7 100 3"
check "the singleton's profile" sites_ok p1.json 1
# Nonblocking exchanges: the time of the MPI_Waitall goes to the posts.
nonblocking_ok() {
  python3 - p2.json <<'PY'
import json, sys
prof = json.load(open(sys.argv[1]))
for r in prof["per_rank"]:
    calls = {s["call"]: s for s in r["sites"]}
    assert {"MPI_Irecv", "MPI_Isend", "MPI_Waitall"} <= set(calls), calls.keys()
    w, i, o = calls["MPI_Waitall"], calls["MPI_Irecv"], calls["MPI_Isend"]
    assert w["count"] == 9 and i["count"] == 9 and i["bytes"] == 9 * 12, (w, i)
    # Every request the Waitall completed was posted at a known site.
    assert abs(w["attributed_s"] - w["time_s"]) <= 1e-9 + 1e-6 * w["time_s"], w
    assert abs(i["wait_s"] + o["wait_s"] - w["time_s"]) <= 1e-9 + 1e-6 * w["time_s"], (i, o, w)
    assert w["wait_s"] == 0 and calls["MPI_Alltoall"]["attributed_s"] == 0
print("ok")
PY
}
check "profile with nonblocking exchanges" \
  "$advise" profile -o p2.json -- "$mpiexec" "${over[@]}" -np 2 "$prog" 2 8 3 9
check "a wait's time is handed to the posts of the requests it completed" nonblocking_ok
# The bytes of the collectives (docs/advise.md's table), on 3 ranks.
cat >coll.c <<'C'
#include <mpi.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, buf[64] = {0}, out[64] = {0}, counts[8], displs[8], two[8], twod[8];
  double d[3] = {1, 2, 3}, e[3];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < size; i++) { counts[i] = i + 1; displs[i] = i * (i + 1) / 2; two[i] = 2; twod[i] = 2 * i; }
  MPI_Bcast(buf, 10, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allreduce(d, e, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) MPI_Gatherv(MPI_IN_PLACE, 0, MPI_INT, out, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  else MPI_Gatherv(buf, rank + 1, MPI_INT, out, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Alltoallv(buf, two, twod, MPI_INT, out, two, twod, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgatherv(buf, rank + 1, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(buf, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Request req;
  MPI_Ialltoall(buf, 5, MPI_INT, out, 5, MPI_INT, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
C
coll_ok() {
  python3 - coll.json <<'PY'
import json, sys
prof = json.load(open(sys.argv[1]))
want = {"MPI_Bcast": 40, "MPI_Allreduce": 24, "MPI_Alltoallv": 3 * 2 * 4, "MPI_Allgatherv": 6 * 4,
        "MPI_Reduce_scatter_block": 16, "MPI_Ialltoall": 20, "MPI_Wait": 0, "MPI_Barrier": 0}
for r in prof["per_rank"]:
    got = {s["call"]: s["bytes"] for s in r["sites"]}
    w = dict(want, MPI_Gatherv=4 * (r["rank"] + 1))  # the root's own block, in place
    assert got == w, (r["rank"], got, w)
    calls = {s["call"]: s for s in r["sites"]}
    assert calls["MPI_Ialltoall"]["wait_s"] == calls["MPI_Wait"]["attributed_s"] == calls["MPI_Wait"]["time_s"]
print("ok")
PY
}
check "a program of collectives builds" "${MPICC:-mpicc}" -g coll.c -o coll
check "profile it on 3 ranks" "$advise" profile -o coll.json -- "$mpiexec" "${over[@]}" -np 3 ./coll
check "the bytes of each collective" coll_ok

# MPICH (Hydra's -genv), when it is installed next to the default MPI: the
# profiler and the program built with MPICH's mpicc.
if command -v mpicc.mpich >/dev/null && command -v mpiexec.hydra >/dev/null; then
  check "the profiler builds with MPICH" \
    mpicc.mpich -O2 -fPIC -shared -o libmpich_profile.so "$(dirname "$src")/profile.c" -ldl
  check "advise_test builds with MPICH" mpicc.mpich -g -O1 "$src" -o app_mpich
  check "profile --profiler LIB -- mpiexec.hydra -n 4" \
    "$advise" profile --profiler libmpich_profile.so -o pm.json -- mpiexec.hydra -n 4 ./app_mpich 7 100 3
  check "MPICH: the profile has both sites of every rank" sites_ok pm.json 4
fi
check "a launcher behind a wrapper (env) gets the profiler too" \
  "$advise" profile -o pe.json -- env ADVISE_TEST_WRAPPED=1 "$mpiexec" "${over[@]}" -np 2 "$prog" 7 100 3
check "... whose profile has both sites of every rank" sites_ok pe.json 2
check "the program's exit status is passed on" \
  expect_status 3 "$advise" profile -o fail.json -- "$mpiexec" "${over[@]}" -np 2 sh -c 'exit 3'
check "a program that never calls MPI gives an error" \
  expect_fail_with "error: the program wrote no profile" "$advise" profile -- true
finish
