#!/usr/bin/env bash
# Installs what numaperf needs to build and test on Debian 12, then configures
# and builds it. Idempotent: prints nothing about packages that are present.
#   scripts/setup.sh [BUILD_DIR]   (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
llvm=${NUMAPERF_LLVM_VERSION:-14}

packages=(
  build-essential cmake ninja-build pkg-config python3 git
  "clang-$llvm" "llvm-$llvm-dev" "llvm-$llvm-tools" "libclang-rt-$llvm-dev"
  "libomp-$llvm-dev"      # OpenMP programs built with clang (tests, benchmarks)
  libhwloc-dev hwloc libnuma-dev numactl
  libdw-dev libelf-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev
  libpfm4-dev linux-perf   # counter event names; perf stat, compared against in tests
  chromium python3-jsonschema   # HTML report checked in a real browser; JSON Schema
  llvm-15-dev clang-15   # second LLVM the pass is tested against
)
# npm fetches the real code bases of the e2e suite (docs/realcode.md); Debian's
# would clash with an image's own node, so only when there is none.
if ! command -v npm >/dev/null; then packages+=(npm); fi
# Optional extra packages, for example for the benchmarks.
if [ -n "${NUMAPERF_EXTRA_PACKAGES:-}" ]; then
  read -r -a extra <<<"$NUMAPERF_EXTRA_PACKAGES"
  packages+=("${extra[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "numaperf setup: installing ${missing[*]}"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S "$here" -B "$build" -G Ninja -DNUMAPERF_LLVM_VERSION="$llvm" >/dev/null
cmake --build "$build" -j"$(nproc)"
