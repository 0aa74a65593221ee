#!/usr/bin/env bash
# Command two of the README: set up, build, and run the whole test suite.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${NUMAPERF_BUILD_DIR:-$here/build}
"$here/scripts/setup.sh" "$build"
cd "$build"
# Timing-dependent cases (interleaving of threads, per-ms scores, probes)
# get one retry: CI machines are shared and noisy.
ctest --output-on-failure -j"$(nproc)" --repeat until-pass:2
# The runtime under AddressSanitizer + UBSan and under ThreadSanitizer, then
# the fuzzers for a bounded time (docs/selfcheck.md; several minutes).
"$here/scripts/sanitizers.sh"
