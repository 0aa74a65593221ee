#!/usr/bin/env bash
# Command one of the README: set up, build, compile the bundled example with
# numaperf-clang, run it and show its report.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${NUMAPERF_BUILD_DIR:-$here/build}
"$here/scripts/setup.sh" "$build"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== compiling examples/remote_read.c with numaperf-clang"
"$build/bin/numaperf-clang" -O2 -pthread "$here/examples/remote_read.c" -o "$out/remote_read"
echo "== running it (the report is printed at exit)"
(cd "$out" && ./remote_read)
echo "== JSON profile: $(ls "$out"/numaperf-remote_read-*.json)"
cp "$out"/numaperf-remote_read-*.json "$build/" && echo "   (copied to $build/)"
