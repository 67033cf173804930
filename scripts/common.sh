# Shared by the scripts: configure and build a build tree.
# Usage: build_tree DIR [cmake options...]
build_tree() {
  local dir=$1
  shift
  cmake -S "$TUCANA_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$(nproc)"
}

# Open MPI refuses to run as root unless told that it is wanted.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TUCANA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export TUCANA_ROOT
