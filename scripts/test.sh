#!/usr/bin/env bash
# Builds Tucana and runs its test suite (installs missing Debian packages first).
#
#   scripts/test.sh             everything, with Open MPI           (build/)
#   scripts/test.sh --sanitize  the runtime's tests under AddressSanitizer and
#                               UndefinedBehaviorSanitizer          (build-asan/)
#   scripts/test.sh --tsan      the runtime's unit tests and its one-process MPI
#                               tests under ThreadSanitizer         (build-tsan/)
#   scripts/test.sh --mpich     the point-to-point tests with MPICH (build-mpich/)
#   scripts/test.sh --thread-safety  the unit tests, built with Clang's
#                               thread-safety analysis as errors    (build-tsa/)
# Extra arguments after the mode go to ctest (e.g. -R p2p_ordering).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TUCANA_ROOT"

mode=default
case "${1:-}" in
  --sanitize | --tsan | --mpich | --thread-safety) mode=${1#--}; shift ;;
esac

case "$mode" in
  default)
    scripts/setup-deps.sh
    build_tree build
    ctest --test-dir build --output-on-failure -j 2 "$@"
    ;;
  sanitize)
    scripts/setup-deps.sh
    build_tree build-asan -DTUCANA_SANITIZE=ON -DTUCANA_BUILD_BENCHMARKS=OFF
    # Leaks are checked at the exit of every process. The MPI libraries keep
    # some allocations until exit: test/sanitizer/lsan.supp names them (the
    # slow unwinder is needed to see through their plugins' frames).
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:fast_unwind_on_malloc=0:detect_stack_use_after_return=0}
    export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$TUCANA_ROOT/test/sanitizer/lsan.supp}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    ctest --test-dir build-asan --output-on-failure -j 2 -L 'unit|mpi' "$@"
    ;;
  tsan)
    scripts/setup-deps.sh
    # No translator: the MPI test programs build without it, and the one
    # test that needs its privatization (exit_cxx_static: a C++ static's
    # destructor once per subrank) is left out below.
    build_tree build-tsan -DTUCANA_TSAN=ON -DTUCANA_BUILD_BENCHMARKS=OFF -DTUCANA_BUILD_TRANSLATOR=OFF
    # The first report ends the process; test/sanitizer/tsan.supp names
    # reports inside the MPI libraries and Boost only. mpi1: the MPI tests
    # with one process (the two-process ones pass too, but take as long
    # again). An -E among the extra arguments replaces the one below.
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$TUCANA_ROOT/test/sanitizer/tsan.supp}
    ctest --test-dir build-tsan --output-on-failure -j 2 -L 'unit|mpi1' -E '^mpi\.exit_cxx_static\.' "$@"
    # A report in a test that expects a failure (the deadlock tests) could
    # go unnoticed by its pass check: none may appear anywhere.
    if grep -q 'WARNING: ThreadSanitizer' build-tsan/Testing/Temporary/LastTest.log; then
      echo "test.sh --tsan: ThreadSanitizer reports in build-tsan/Testing/Temporary/LastTest.log" >&2
      exit 1
    fi
    ;;
  mpich)
    scripts/setup-deps.sh --mpich
    build_tree build-mpich -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
      -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich -DTUCANA_NATIVE_MPIRUN=mpiexec.mpich \
      -DTUCANA_BUILD_BENCHMARKS=OFF
    ctest --test-dir build-mpich --output-on-failure -j 2 -L mpi "$@"
    ;;
  thread-safety)
    scripts/setup-deps.sh
    # The runtime and its unit tests with Clang 16 and -DTUCANA_THREAD_SAFETY=ON:
    # a broken lock annotation is a compile error (docs/testing.md). Any
    # other warning in the runtime's own sources fails the mode too. (The
    # MPI test programs are not built: only the unit tests run here.)
    CC=clang-16 CXX=clang++-16 cmake -S "$TUCANA_ROOT" -B build-tsa -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTUCANA_THREAD_SAFETY=ON -DTUCANA_BUILD_TRANSLATOR=OFF -DTUCANA_BUILD_BENCHMARKS=OFF \
      >build-tsa.configure.log 2>&1 || { cat build-tsa.configure.log; exit 1; }
    cmake --build build-tsa -j "$(nproc)" --target tucana_main tucana_unit_test_programs 2>&1 |
      tee build-tsa/build.log
    if grep -E "^$TUCANA_ROOT/runtime/.*: warning:" build-tsa/build.log; then
      echo "test.sh --thread-safety: the runtime does not compile warning-free with Clang (above)" >&2
      exit 1
    fi
    ctest --test-dir build-tsa --output-on-failure -j 2 -L unit "$@"
    ;;
esac
