#!/usr/bin/env bash
# Runs every libFuzzer target of fuzz/ (docs/selfcheck.md) for a bounded time
# (NUMAPERF_FUZZ_SECONDS each, default 20) on its corpus in fuzz/corpus/.
# New inputs go to a scratch directory, not into the repository; a crash,
# leak, sanitizer report or timeout leaves its input in $dir/artifacts and
# fails. Called by scripts/sanitizers.sh; by hand: scripts/fuzz.sh [NAME...].
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${NUMAPERF_BUILD_DIR:-$here/build}-fuzz
llvm=${NUMAPERF_LLVM_VERSION:-14}
seconds=${NUMAPERF_FUZZ_SECONDS:-20}
clangxx=$(command -v "clang++-$llvm" || command -v clang++ || true)
if [ -z "$clangxx" ]; then
  echo "numaperf: clang++-$llvm not found; the fuzzers need it (scripts/setup.sh)" >&2
  exit 1
fi
jobs=$(nproc)
[ "$jobs" -gt 2 ] || jobs=2
cmake -S "$here/fuzz" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$clangxx" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"$jobs" >/dev/null
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for c in "$here"/fuzz/corpus/*/; do names+=("$(basename "$c")"); done
fi
mkdir -p "$dir/artifacts"
for name in "${names[@]}"; do
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  echo "numaperf: fuzzing $name for ${seconds} s"
  if ! "$dir/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=4096 -print_final_stats=1 -artifact_prefix="$dir/artifacts/$name-" \
      "$scratch" "$here/fuzz/corpus/$name" >"$dir/$name.log" 2>&1; then
    tail -40 "$dir/$name.log"
    echo "numaperf: fuzzer $name failed; input in $dir/artifacts/" >&2
    exit 1
  fi
  grep -E '^stat::number_of_executed_units' "$dir/$name.log" || true
  rm -rf "$scratch"
done
