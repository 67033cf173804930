#!/usr/bin/env bash
# tucana-advise with tucana-cco: a stand-in tucana-cco next to a copy of the
# driver checks what the driver hands over (check, rewrite, --line of the
# selected sites, --test-freq after --tune) and what it makes of `check
# --json` (the report's loop column: the innermost loop around each site).
# Usage: advise_cco_test.sh BIN_DIR MPIEXEC ADVISE_TEST [ARCHIVE]
. "$(dirname "${BASH_SOURCE[0]}")/advise_common.sh" "$@"
# The loops around the all-to-all: its iteration loop, and the loop before
# it in the same body (which does not contain it).
loop_a=$(awk -v a="$line_a" 'NR < a && /for \(int it = 0; it < iters/ { l = NR } END { print l }' "$src")
inner=$((loop_a + 1))
mkdir bin
cp "$bin/tucana-advise" bin/
advise="$work/bin/tucana-advise"
cat >bin/tucana-cco <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$work/cco.log"
case "\$1" in
  check) echo '{"file": "x", "loops": [{"line": $loop_a, "end_line": $((line_a + 4)), "var": "it", "sites": []}, {"line": $inner, "end_line": $((inner + 1)), "var": "p", "sites": []}]}' ;;
  rewrite)
    while [ \$# -gt 0 ] && [ "\$1" != -o ]; do shift; done
    cat >"\$2" <<'C'
#include <mpi.h>
#ifndef TUCANA_CCO_TEST_FREQ
#define TUCANA_CCO_TEST_FREQ 1
#endif
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return TUCANA_CCO_TEST_FREQ < 0; }
C
    ;;
esac
EOF
chmod +x bin/tucana-cco
echo '{"alpha_s":1e-6,"beta_s_per_byte":1e-9}' >cal.json

check "check passes FILE and FLAGS on" bash -c "'$advise' check --json x.c -- -I. -DX=1 >/dev/null && tail -n 1 cco.log | grep -qx 'check --json x.c -- -I. -DX=1'"
check "rewrite passes its options on" bash -c "'$advise' rewrite --tucana x.c -o y.c --test-freq 8 -- -DY && tail -n 1 cco.log | grep -qx 'rewrite --tucana x.c -o y.c --test-freq 8 -- -DY'"
check "profile advise_test" "$advise" profile -o p.json -- "$mpiexec" "${over[@]}" -np 2 "$prog" 5 2048 1
check "the report's loop column: the innermost loop around the site" bash -c "
  '$advise' report p.json --calibration cal.json --json |
  python3 -c 'import json,sys; r=json.load(sys.stdin); s=[x for x in r[\"sites\"] if x[\"call\"]==\"MPI_Alltoall\"][0]; assert s[\"loop_line\"] == $loop_a, s
assert [x for x in r[\"sites\"] if x[\"call\"]==\"MPI_Sendrecv\"][0][\"loop_line\"] is None'"
check "... and in the table" bash -c "'$advise' report p.json --calibration cal.json | grep -E 'advise_test.c:$line_a +main +MPI_Alltoall +$loop_a '"
check "rewrite --profile: only the lines of the selected sites" bash -c "
  '$advise' rewrite --mpi '$src' -o out.c --profile p.json --calibration cal.json --top 1 -- -I. &&
  tail -n 1 cco.log | grep -qx 'rewrite --mpi $src -o out.c --line $line_a -- -I.'"
check "--tune: times each MPI_Test frequency, rewrites with the best" bash -c "
  '$advise' rewrite --mpi x.c -o tuned.c --tune '{exe}' -- -I. -O3 >tune.txt &&
  test \$(grep -cE '^ +[0-9]+  [0-9.]+' tune.txt) = 9 && grep -q '<- best' tune.txt &&
  best=\$(awk '/<- best/ { print \$1 }' tune.txt) && tail -n 1 cco.log | grep -qx \"rewrite --mpi x.c -o tuned.c --test-freq \$best -- -I. -O3\""
rm bin/tucana-cco
check "without tucana-cco the report has no loop column" bash -c "
  '$advise' report p.json --calibration cal.json | head -n 3 | tail -n 1 | { ! grep -q loop; }"
finish
