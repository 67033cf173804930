#!/usr/bin/env bash
# tucana-advise's errors: 'tucana-advise: error: ...' on stderr, exit 1 for
# a failure, 2 for a usage error; --help per subcommand, --version.
# Usage: advise_errors_test.sh BIN_DIR [MPIEXEC ADVISE_TEST ARCHIVE]
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"
advise="$bin/tucana-advise"
export TUCANA_ADVISE_HOME="$work/empty-home"
version=$(sed -n 1p "$(dirname "${BASH_SOURCE[0]}")/../../VERSION")
echo '{"format":"tucana-advise-profile-1","ranks":1,"per_rank":[{"rank":0,"sites":[]}]}' >empty.json

check "--version" expect_output "^tucana-advise \\(Tucana\\) $version\$" "$advise" --version
for sub in calibrate profile report check rewrite; do
  check "$sub --help" expect_output "usage: tucana-advise $sub" "$advise" "$sub" --help
done
check "no subcommand: usage error" expect_status 2 "$advise"
check "... with the message" expect_fail_with "^tucana-advise: error: a subcommand is required" "$advise"
check "an unknown option: exit 2" expect_status 2 "$advise" report empty.json --bogus
check "... with the message" expect_fail_with "tucana-advise: error: unrecognized arguments: --bogus" "$advise" report empty.json --bogus
check "a bad --top: exit 2" expect_status 2 "$advise" report empty.json --top x
check "no calibration: exit 1" expect_status 1 "$advise" report empty.json
check "... telling to run calibrate" \
  expect_fail_with "^tucana-advise: error: no calibration for this machine .*run 'tucana-advise calibrate'" "$advise" report empty.json
check "a missing profile: exit 1" expect_status 1 "$advise" report missing.json --calibration empty.json
check "... with the message" expect_fail_with "^tucana-advise: error: no profile missing.json" "$advise" report missing.json
check "a file that is no profile" expect_fail_with "^tucana-advise: error: .* is not a tucana-advise profile" "$advise" report /etc/hostname
check "a file that is no calibration" \
  expect_fail_with "^tucana-advise: error: empty.json is not a calibration file" "$advise" report empty.json --calibration empty.json
check "--top 0" expect_fail_with "^tucana-advise: error: --top must be at least 1" "$advise" report empty.json --top 0
check "profile without a command" expect_fail_with "^tucana-advise: error: profile: no command" "$advise" profile
check "profile of a command that does not exist" \
  expect_fail_with "^tucana-advise: error: profile: '/no/such/cmd' is not a command" "$advise" profile -- /no/such/cmd
check "rewrite needs -o" expect_status 2 "$advise" rewrite --mpi x.c
if [ ! -x "$bin/tucana-cco" ]; then
  check "check without tucana-cco: exit 2" expect_status 2 "$advise" check x.c --
  check "... saying so" expect_fail_with "error: tucana-cco is not installed" "$advise" check x.c --
  check "rewrite without tucana-cco: exit 2" expect_status 2 "$advise" rewrite --mpi x.c -o y.c --
else
  check "rewrite with both --mpi and --tucana" expect_fail_with "error: rewrite: give one of --mpi and --tucana" \
    "$advise" rewrite --mpi --tucana x.c -o y.c --
  check "--tune without {exe}" expect_fail_with "error: --tune: the command must contain \\{exe\\}" \
    "$advise" rewrite --mpi x.c -o y.c --tune "mpirun ./a" --
fi
finish
