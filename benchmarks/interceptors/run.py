#!/usr/bin/env python3
"""What numaperf's interceptors cost with profiling off, per call.

Builds interceptor_cost.cpp natively and runs each mode (load, lock, alloc,
insert) alternately without and with libnumaperf.so preloaded (NUMAPERF_ACTIVE=0:
interceptors on, hooks off), under `setarch -R` when it is available (this
VM's random-access times are bimodal across address-space layouts; one
layout makes runs comparable). Prints the median ns per operation of each
and the difference: the interceptor's price in a program that calls it once
per cache miss. See docs/benchmarks.md, "Interceptor cost".

Exit status: 0 measured; 1 the preloaded run failed (a profiler problem);
2 an environment problem (no compiler, no library, bad arguments).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODES = ("load", "lock", "alloc", "insert")
# Native-only runs of `insert` with register additions and no call: what a
# longer path alone costs a loop whose misses overlap (docs/benchmarks.md,
# "Session 27").
PADS = (40, 100)


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=600)
    if p.returncode != 0:
        return None, p.stderr.strip()
    values = {}
    for line in p.stdout.splitlines():
        words = line.split()
        for i in range(1, len(words) - 1, 2):
            values[words[0] + ":" + words[i]] = float(words[i + 1])
    return values, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"),
                    help="numaperf build tree with lib/libnumaperf.so (default: %(default)s)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--ops", type=int, default=1000000, help="operations per repetition")
    ap.add_argument("--table-mib", type=int, default=64, help="random-load table size")
    ap.add_argument("--work-dir", default=None, help="where the binary goes (default: build dir)")
    ap.add_argument("--cxx", default=shutil.which("clang++-14") or shutil.which("clang++"),
                    help="native C++ compiler")
    a = ap.parse_args()
    if a.rounds < 1 or a.ops < 1 or a.table_mib < 1:
        print("interceptors: --rounds, --ops and --table-mib must be positive", file=sys.stderr)
        return 2
    lib = os.path.join(a.build_dir, "lib", "libnumaperf.so")
    if not os.path.isfile(lib):
        print(f"interceptors: {lib} not found (build numaperf first)", file=sys.stderr)
        return 2
    if not a.cxx:
        print("interceptors: no C++ compiler (--cxx)", file=sys.stderr)
        return 2
    work = a.work_dir or os.path.join(a.build_dir, "bench-interceptors")
    os.makedirs(work, exist_ok=True)
    binary = os.path.join(work, "interceptor_cost")
    build = subprocess.run([a.cxx, "-O2", "-std=c++17", "-pthread",
                            os.path.join(HERE, "interceptor_cost.cpp"), "-o", binary],
                           stderr=subprocess.PIPE, text=True)
    if build.returncode != 0:
        print("interceptors: native build failed:\n" + build.stderr, file=sys.stderr)
        return 2
    prefix = []
    setarch = shutil.which("setarch")
    if setarch and subprocess.run([setarch, "-R", "true"]).returncode == 0:
        prefix = [setarch, "-R"]
    base_env = dict(os.environ)
    for k in ("LD_PRELOAD", "NUMAPERF_ACTIVE"):
        base_env.pop(k, None)
    off_env = dict(base_env, LD_PRELOAD=lib, NUMAPERF_ACTIVE="0",
                   NUMAPERF_REPORT="none", NUMAPERF_JSON="none")
    args = [f"ops={a.ops}", f"table_mib={a.table_mib}", "reps=3"]
    samples = {}
    for _ in range(a.rounds):
        for mode in MODES:
            for variant, env in (("native", base_env), ("off", off_env)):
                values, err = run(prefix + [binary, mode] + args, env)
                if values is None:
                    print(f"interceptors: {mode} {variant} failed: {err}", file=sys.stderr)
                    return 1 if variant == "off" else 2
                for key, v in values.items():
                    samples.setdefault((key, variant), []).append(v)
        for pad in PADS:
            values, err = run(prefix + [binary, "insert", f"pad={pad}"] + args, base_env)
            if values is None:
                print(f"interceptors: insert pad={pad} failed: {err}", file=sys.stderr)
                return 2
            samples.setdefault((f"pad{pad}", "native"), []).append(values["insert:ns_per_op"])
    print(f"interceptor cost, profiling off ({a.rounds} rounds, {a.ops} ops, "
          f"{a.table_mib} MiB table{', setarch -R' if prefix else ''})")
    print(f"{'operation':<22}{'native ns':>10}{'off ns':>10}{'ratio':>8}{'extra ns':>10}")
    rows = [("load", "load:ns_per_op"), ("lock + load", "lock:ns_per_op"),
            ("new + load", "alloc:new_ns"), ("delete + load", "alloc:delete_ns"),
            ("insert", "insert:ns_per_op")]
    for label, key in rows:
        if (key, "native") not in samples or (key, "off") not in samples:
            print(f"interceptors: no {key} figure in the output", file=sys.stderr)
            return 2
        n = statistics.median(samples[(key, "native")])
        o = statistics.median(samples[(key, "off")])
        print(f"{label:<22}{n:>10.1f}{o:>10.1f}{o / n:>7.2f}x{o - n:>10.1f}")
    base = statistics.median(samples[("insert:ns_per_op", "native")])
    for pad in PADS:
        p = statistics.median(samples[(f"pad{pad}", "native")])
        print(f"{'insert + %d adds' % pad:<22}{p:>10.1f}{'native':>10}{p / base:>7.2f}x{p - base:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
