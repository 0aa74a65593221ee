#!/usr/bin/env python3
"""The functions every malloc, free, new, delete and lock of a program
reaches with profiling off sit together in libnumaperf.so (common/hot_path.h:
in a program whose own accesses thrash the TLB, each further code page an
interceptor touches costs a page walk per call). Fails naming any such
function found outside a window of a few pages around the others: one
declared without NUMAPERF_HOT_PATH, or a new callee on that path.

usage: hot_path_layout_test.py LIBNUMAPERF_SO
"""
import subprocess
import sys

# Demangled names (a prefix up to the parameter list) of the functions on
# the profiling-off path of each intercepted call, as perf finds them in
# benchmarks/interceptors (docs/benchmarks.md, "Interceptor cost").
PATH_FUNCTIONS = [
    "malloc", "free", "operator new(unsigned long)", "operator delete(void*)",
    "pthread_mutex_lock",
    "numaperf::recordAllocation(",
    "numaperf::retireAllocation(", "numaperf::currentThread()", "numaperf::captureStack(",
    "numaperf::StackRecord::noteAllocations(", "numaperf::objectRegistry()",
    "numaperf::ObjectRegistry::addHeap(", "numaperf::ObjectRegistry::skipsUnprofiledFree(",
    "numaperf::BlockMap::insert(", "numaperf::BlockMap::memoFor(",
    "numaperf::nothingTouched()", "numaperf::walkFrames(", "numaperf::holdFree(",
    "numaperf::BlockMap::openLane(", "numaperf::flushAllocationCounts(",
]
WINDOW = 4 * 4096  # the path's code today takes under 3 pages


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out = subprocess.run(["nm", "--defined-only", "-C", argv[1]], capture_output=True, text=True)
    if out.returncode != 0:
        print("nm failed: " + out.stderr.strip(), file=sys.stderr)
        return 2
    found = {}
    for line in out.stdout.splitlines():
        parts = line.split(" ", 2)
        if len(parts) != 3 or parts[1] not in "tT":
            continue
        name = parts[2]
        for want in PATH_FUNCTIONS:
            if name == want or (want.endswith("(") and name.startswith(want)):
                found.setdefault(want, []).append(int(parts[0], 16))
    missing = [w for w in PATH_FUNCTIONS if w not in found]
    if missing:
        print("not found in %s: %s" % (argv[1], ", ".join(missing)), file=sys.stderr)
        return 1
    # The window holding the most of them is the hot path's; the rest stray.
    addrs = sorted((a, w) for w, xs in found.items() for a in xs)
    best = max(range(len(addrs)),
               key=lambda i: sum(1 for a, _ in addrs if addrs[i][0] <= a < addrs[i][0] + WINDOW))
    lo = addrs[best][0]
    stray = sorted({w for a, w in addrs if not lo <= a < lo + WINDOW})
    for w in stray:
        print("off the hot path's pages: %s" % w, file=sys.stderr)
    print("%d functions within %d KiB from 0x%x%s" % (
        len(PATH_FUNCTIONS) - len(stray), WINDOW // 1024, lo, "" if not stray else "; %d stray" % len(stray)))
    return 1 if stray else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
