#!/usr/bin/env bash
# The runtime checks itself (docs/selfcheck.md), called by scripts/test.sh:
#  1. the runtime and its unit tests built with AddressSanitizer +
#     UndefinedBehaviorSanitizer (-DNUMAPERF_SANITIZE=address) and run;
#  2. the same with ThreadSanitizer (-DNUMAPERF_SANITIZE=thread), deliberate
#     benign races listed (each with its reason) in scripts/tsan.supp;
#  3. every libFuzzer target of fuzz/ run on its corpus for a bounded time
#     (scripts/fuzz.sh).
# Each build has its own directory next to the main build. Any report fails.
# NUMAPERF_SANITIZERS="address thread fuzz" picks the steps.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base=${NUMAPERF_BUILD_DIR:-$here/build}
llvm=${NUMAPERF_LLVM_VERSION:-14}
jobs=$(nproc)
[ "$jobs" -gt 2 ] || jobs=2

unit_tests() {  # $1: address or thread
  local dir=$base-$1
  cmake -S "$here" -B "$dir" -G Ninja -DNUMAPERF_LLVM_VERSION="$llvm" \
    -DNUMAPERF_SANITIZE="$1" >/dev/null
  cmake --build "$dir" -j"$jobs" --target runtime_unit_tests >/dev/null
  if ! (cd "$dir" && ctest -R '^runtime\.' -j"$jobs" --repeat until-pass:2 --output-on-failure >"$dir/unit.log" 2>&1); then
    grep -E -A40 'WARNING: |ERROR: |runtime error|Failure' "$dir/unit.log" | head -120
    tail -8 "$dir/unit.log"
    return 1
  fi
  tail -3 "$dir/unit.log"
}

for step in ${NUMAPERF_SANITIZERS:-address thread fuzz}; do
  start=$SECONDS
  case $step in
    address)
      echo "numaperf: runtime unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
      unit_tests address ;;
    thread)
      echo "numaperf: runtime unit tests under ThreadSanitizer"
      # halt_on_error: the first race fails its test (ctest sees the status).
      TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$here/scripts/tsan.supp" \
        unit_tests thread ;;
    fuzz)
      "$here/scripts/fuzz.sh" ;;
    *) echo "numaperf: unknown sanitizer step '$step' (address, thread, fuzz)" >&2; exit 2 ;;
  esac
  echo "numaperf: $step step took $((SECONDS - start)) s"
done
