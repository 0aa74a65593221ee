#!/bin/sh
# Cross-checks the DRAM latency of `numaperf probe latency` with an
# independent measurement (probe_dram_check.c: a constant-stride chase, stride
# 1 MiB + 64 B) on the same PU, node and buffer size, and prints the ratio.
# It also prints the same chase with a 4 KiB + 64 B stride, which hardware
# prefetchers partly follow (a lower bound, for information).
#
# usage: benchmarks/probe_dram_check.sh [BUILD_DIR] [PU] [NODE]
#   BUILD_DIR  build tree with bin/numaperf or bin/numaperf-probe (default: build)
# Exit status: 0 when the ratio is within [0.5, 2], 1 otherwise, 2 on errors.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../build"}
pu=${2:-0}
node=${3:-0}
if [ -x "$build/bin/numaperf" ] && "$build/bin/numaperf" probe --help >/dev/null 2>&1; then
  probe="$build/bin/numaperf"
elif [ -x "$build/bin/numaperf-probe" ]; then
  probe="$build/bin/numaperf-probe"
else
  echo "probe_dram_check: no numaperf or numaperf-probe in $build/bin" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/check" "$here/probe_dram_check.c"

# The probe's DRAM buffer (4 x the largest cache, >= 256 MiB) is used for both.
"$probe" probe latency --pu "$pu" --node "$node" --json > "$tmp/probe.json"
read -r buffer_mib probe_ns <<EOF2
$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["config"]["buffer_bytes"] >> 20, "%.2f" % j["latency_ns"]["median"])' "$tmp/probe.json")
EOF2
if command -v numactl >/dev/null 2>&1; then
  place="numactl --physcpubind=$pu --membind=$node"
else
  place="taskset -c $pu"
fi
check_ns=$($place "$tmp/check" "$buffer_mib" 300000 1048640)
short_ns=$($place "$tmp/check" "$buffer_mib" 300000 4160)
python3 - "$probe_ns" "$check_ns" "$buffer_mib" "$pu" "$node" "$short_ns" <<'EOF2'
import sys
probe, check, mib, pu, node, short = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], float(sys.argv[6])
ratio = probe / check
print(f"DRAM latency, PU {pu} -> node {node}, {mib} MiB buffer:")
print(f"  numaperf probe latency (random cycle):       {probe:8.1f} ns")
print(f"  stride chase, 1 MiB + 64 B (independent):    {check:8.1f} ns")
print(f"  ratio probe / stride chase:                  {ratio:8.2f}")
print(f"  (stride 4 KiB + 64 B, prefetcher-assisted:   {short:8.1f} ns)")
sys.exit(0 if 0.5 <= ratio <= 2.0 else 1)
EOF2
