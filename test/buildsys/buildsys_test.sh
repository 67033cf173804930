#!/usr/bin/env bash
# Tucana in real builds, as a user meets it after `cmake --install`:
#  - the installed prefix is moved before use (nothing may point back into
#    the build tree or the old prefix);
#  - find_package(Tucana) + tucana_add_executable() with Make and with Ninja:
#    annotated sources are translated, results equal plain MPI's, a second
#    build does nothing, a changed header rebuilds;
#  - a main() in a static library links;
#  - find_package(MPI) with MPI_C_COMPILER/MPI_CXX_COMPILER set to the wrappers.
# Usage: buildsys_test.sh BUILD_DIR NATIVE_MPICC NATIVE_MPIRUN
build=$(cd "$1" && pwd)
native_cc=$2
native_run=$3
tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$tests/../.." && pwd)
CHECK_VERBOSE=1
. "$tests/../tools/common.sh" ""
# The projects are copied: the test touches their files.
here=$work/projects
mkdir -p "$here"
cp -r "$tests/src" "$tests/package" "$tests/findmpi" "$here/"
contains() {  # pattern, command...: the command succeeds and prints pattern
  expect_output "$@"
}
lacks() {  # pattern, command...: the command succeeds and does not print pattern
  local pattern=$1
  shift
  "$@" >"$work/out.log" 2>&1 || { echo "failed ($?): $*"; cat "$work/out.log"; return 1; }
  if grep -qE -- "$pattern" "$work/out.log"; then echo "unexpected /$pattern/ in the output of: $*"; cat "$work/out.log"; return 1; fi
}

# --- install, then move the prefix -----------------------------------------
version=$(head -n 1 "$root/VERSION")
check "cmake --install" cmake --install "$build" --prefix "$work/stage"
mv "$work/stage" "$work/prefix"
prefix=$work/prefix
# (tucana-advise reads the runtime's MPI call table and collective switch
# sizes from the prefix as it starts.)
for tool in tucanacc tucanacxx tucana-run tucana-translate tucana-advise; do
  check "$tool --version from the moved prefix" contains "$version" "$prefix/bin/$tool" --version
done
for page in tucanacc tucana-run tucana-translate; do
  check "man page $page.1 installed" test -s "$prefix/share/man/man1/$page.1"
done
check "CMake package installed" test -f "$prefix/lib/cmake/Tucana/TucanaConfig.cmake"
check "-showme:compile names the moved prefix" contains "-I$prefix/include/tucana/mpi" "$prefix/bin/tucanacc" -showme:compile
check "-showme:link names the moved prefix" contains "-L$prefix/lib" "$prefix/bin/tucanacc" -showme:link
check "no tool names the build tree" lacks "$build|$work/stage" cat "$prefix/bin/tucanacc" "$prefix/bin/tucana-run" \
  "$prefix/bin/tucana-advise" \
  "$prefix/lib/cmake/Tucana/TucanaConfig.cmake" "$prefix/lib/cmake/Tucana/TucanaTargets.cmake" \
  "$prefix/lib/cmake/Tucana/TucanaTargets-"*.cmake

# --- the reference: the same program with plain MPI ------------------------
oversub=""
if "$native_run" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then oversub="--oversubscribe"; fi
check "plain MPI build" "$native_cc" -O2 -Wno-unknown-pragmas -I"$here/src" -o "$work/ring.native" \
  "$here/src/ring_stencil.c" "$here/src/checksum.c"
"$native_run" -np 4 $oversub "$work/ring.native" >"$work/native.out" 2>&1
expected=$(grep -m1 "^ring checksum" "$work/native.out")
check "plain MPI result" test -n "$expected"
run_equals() {  # program: under tucana-run (2 x 2) it prints plain MPI's result line
  "$prefix/bin/tucana-run" -np 2 --vf 2 "$1" >"$work/out.log" 2>&1 || { echo "failed ($?)"; cat "$work/out.log"; return 1; }
  grep -qxF -- "$expected" "$work/out.log" || { echo "missing the line '$expected' in:"; cat "$work/out.log"; return 1; }
}
object_of() {  # build dir, source name: the object CMake made of it
  find "$1" -name "$2.o" -path "*CMakeFiles*" | head -n 1
}

# --- find_package(Tucana), with each generator ------------------------------
generators=("Unix Makefiles")
if command -v ninja >/dev/null 2>&1; then generators+=(Ninja); else echo "note: ninja not found, Ninja generator not tested"; fi
for gen in "${generators[@]}"; do
  b="$work/package-${gen// /}"
  check "[$gen] configure with find_package(Tucana)" cmake -S "$here/package" -B "$b" -G "$gen" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
  check "[$gen] build" cmake --build "$b"
  check "[$gen] tucana_add_executable: result equals plain MPI" run_equals "$b/ring"
  check "[$gen] annotated source was translated" contains "tucana_sb_begin" nm -u "$(object_of "$b" ring_stencil.c)"
  check "[$gen] main() in a static library" run_equals "$b/ring_from_lib"
  check "[$gen] C++ target on Tucana::Tucana" contains "^hello sum 6 on 4 ranks" "$prefix/bin/tucana-run" -np 2 --vf 2 "$b/hello"
  check "[$gen] second build does nothing" lacks "Building|Linking" cmake --build "$b"
  if [ "$gen" = Ninja ]; then
    check "[$gen] ninja: no work to do" contains "no work to do" ninja -C "$b"
  fi
  # A changed header rebuilds exactly the objects that include it.
  touch "$here/src/ring.h"
  check "[$gen] changed header rebuilds" contains "ring_stencil.c" cmake --build "$b" --verbose
  check "[$gen] and then nothing" lacks "Building|Linking" cmake --build "$b"
done

# --- find_package(MPI) with the wrappers as MPI compilers --------------------
f="$work/findmpi"
check "find_package(MPI) with MPI_C_COMPILER=tucanacc" cmake -S "$here/findmpi" -B "$f" \
  -DMPI_C_COMPILER="$prefix/bin/tucanacc" -DMPI_CXX_COMPILER="$prefix/bin/tucanacxx" -DCMAKE_BUILD_TYPE=Release
check "find_package(MPI): build" cmake --build "$f"
check "find_package(MPI): runs virtualized, result equals plain MPI" run_equals "$f/ring"
check "find_package(MPI): C++" contains "^hello sum 6 on 4 ranks" "$prefix/bin/tucana-run" -np 2 --vf 2 "$f/hello"


# --- BUILD_SHARED_LIBS=ON: shared libraries with privatized globals -----------
b="$work/shared"
check "[shared] configure with BUILD_SHARED_LIBS=ON" cmake -S "$tests/shared" -B "$b" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DDSO_SRC="$tests/../dso"
check "[shared] build" cmake --build "$b"
check "[shared] the libraries are shared" test -f "$b/libdso_c.so" -a -f "$b/libdso_cxx.so"
check "[shared] each subrank has its own copies of the libraries' globals" \
  contains "^dso: ok" "$prefix/bin/tucana-run" -np 2 --vf 2 "$b/dso_link"

finish
