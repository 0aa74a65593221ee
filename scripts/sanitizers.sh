#!/usr/bin/env bash
# The runtime checks itself: the runtime and its unit tests built with
# AddressSanitizer + UndefinedBehaviorSanitizer (-DNUMAPERF_SANITIZE=address)
# and run. Called by scripts/test.sh. ThreadSanitizer (-DNUMAPERF_SANITIZE=
# thread) builds, but shadow memory's 512 GiB reservation does not fit TSan's
# address-space layout, so the shadow tests fail there: not run yet.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${NUMAPERF_BUILD_DIR:-$here/build}-address
llvm=${NUMAPERF_LLVM_VERSION:-14}
echo "numaperf: runtime unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S "$here" -B "$dir" -G Ninja -DNUMAPERF_LLVM_VERSION="$llvm" \
  -DNUMAPERF_SANITIZE=address >/dev/null
cmake --build "$dir" -j"$(nproc)" --target runtime_unit_tests >/dev/null
cd "$dir"
ctest -R '^runtime\.' -j"$(nproc)" --output-on-failure | tail -3
