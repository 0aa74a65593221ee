#!/bin/sh
# ctest pass.llvm<N>: build pass/ standalone against LLVM <N> and run the
# lit suite with that LLVM's opt/FileCheck/clang.
#   run-other-llvm.sh <version> <source root> <build dir> <lit command...>
# Exits 77 (ctest SKIP_RETURN_CODE) when that LLVM is not installed.
set -eu
version=$1 src=$2 build=$3
shift 3
llvm_dir=/usr/lib/llvm-$version/lib/cmake/llvm
if [ ! -d "$llvm_dir" ]; then
  echo "LLVM $version not installed ($llvm_dir missing): skipped"
  exit 77
fi
gen=
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
# shellcheck disable=SC2086
cmake -S "$src/pass" -B "$build" $gen -DNUMAPERF_LLVM_VERSION="$version" \
  -DLLVM_DIR="$llvm_dir" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build"
# Prefer the lit of the LLVM under test when it has one.
lit_py=/usr/lib/llvm-$version/build/utils/lit/lit.py
if [ -f "$lit_py" ]; then
  exec python3 "$lit_py" -sv "$build/tests/pass"
fi
exec "$@" -sv "$build/tests/pass"
