#!/usr/bin/env bash
# Installs the Debian 12 packages Tucana needs, when any is missing.
# Usage: scripts/setup-deps.sh [--mpich]
# MPICH is installed beside Open MPI (the default MPI stays Open MPI): the
# tests run their self-checking programs under plain MPICH as a reference.
# --mpich is accepted for older callers; it adds nothing now.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config binutils
          libopenmpi-dev openmpi-bin
          mpich libmpich-dev
          libboost-context-dev libhwloc-dev
          libgtest-dev libbenchmark-dev
          clang-16 libclang-16-dev libclang-cpp16-dev llvm-16-dev llvm-16-tools python3
          libomp-16-dev
          libopenblas-dev iproute2 util-linux gdb)
for arg in "$@"; do
  case "$arg" in
    --mpich) ;;
    *) echo "setup-deps.sh: unknown option '$arg'" >&2; exit 1 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
