#!/usr/bin/env python3
"""End-to-end tests of the probe commands on this machine.

Usage: probe_cli_test.py PROBE_BINARY CASE

The figures are compared as ratios, never as absolute times; the host may be
shared with other work, so orderings use medians and generous margins.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]


def run(*args, timeout=120):
    t0 = time.monotonic()
    p = subprocess.run([BIN, "probe", *args], capture_output=True, text=True, timeout=timeout)
    return p, time.monotonic() - t0


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def topology():
    out = subprocess.run(["numactl", "-H"], capture_output=True, text=True).stdout
    nodes = [int(x) for x in out.split("available:")[1].split("(")[1].split(")")[0].replace("-", " ").split()] if "available:" in out else [0]
    return out, nodes


def node_total_kib(node):
    with open(f"/sys/devices/system/node/node{node}/meminfo") as f:
        for line in f:
            if "MemTotal:" in line:
                return int(line.split()[-2])
    return 1 << 20


def case_bad_input():
    node = min(int(n[4:]) for n in os.listdir("/sys/devices/system/node") if n.startswith("node") and n[4:].isdigit())
    huge = 2 * node_total_kib(node)  # twice the node's memory
    huge_msg = "does not fit in node" if huge <= 268435456 else "at most 268435456 KiB"
    cases = [
        (["latency", "--pu", "100000"], "does not exist; valid PUs:"),
        (["latency", "--node", "4096"], "does not exist; valid nodes:"),
        (["latency", "--node", str(node), "--buffer", str(huge)], huge_msg),
        (["latency", "--noise", "overload", "--noisy-node", "4096"], "noisy node 4096 does not exist; valid nodes:"),
        (["latency", "--noise", "loud"], "valid: none, spread, overload"),
        (["latency", "--noisy-node", "0"], "only used with --noise overload"),
        (["latency", "--buffer", "0"], "at least 1 KiB"),
        (["matrix", "--buffer", str(min(huge, 268435456))], "does not fit in node"),
        (["calibrate", "/nonexistent-dir/cal.json", "--buffer", "4096", "--workload", "256",
          "--no-loaded", "--no-bandwidth"], "cannot write"),
    ]
    for args, want in cases:
        p, secs = run(*args)
        check(p.returncode == 2, f"{args}: exit {p.returncode}, want 2; stderr: {p.stderr!r}")
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(len(lines) == 1, f"{args}: want one message, got {lines!r}")
        check(want in lines[0], f"{args}: {lines[0]!r} does not say {want!r}")
        check(lines[0].startswith("numaperf probe: error: "), f"{args}: {lines[0]!r}")
        check(secs < 10, f"{args}: took {secs:.1f} s")
        print("ok", args, "->", lines[0])


def case_restricted_cpuset():
    # Started with a narrower affinity (taskset), the probe only uses those
    # PUs: the others are refused by name, the default PU is an allowed one.
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        print("SKIP: one CPU")
        return
    keep, other = cpus[-1], cpus[0]
    base = ["taskset", "-c", str(keep), BIN, "probe", "latency"]
    p = subprocess.run(base + ["--pu", str(other)], capture_output=True, text=True, timeout=60)
    check(p.returncode == 2, f"exit {p.returncode}")
    check(f"PU {other} is outside this process's allowed CPUs; valid PUs: {keep}" in p.stderr, p.stderr)
    p = subprocess.run(base + ["--json", "--buffer", "1024", "--workload", "1024", "--noise", "spread"],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, p.stderr)
    j = json.loads(p.stdout)
    check(j["config"]["pu"] == keep, f"default PU {j['config']['pu']} not the allowed {keep}")
    check(j["config"]["loaders"] == [], "loaders outside the allowed CPUs")
    check("no PU other than the test PU" in p.stderr, f"note missing: {p.stderr!r}")


def latency_json(*extra):
    p, secs = run("latency", "--json", *extra)
    check(p.returncode == 0, f"latency {extra}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout), secs


def case_latency_default():
    p, secs = run("latency")
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    print(p.stdout, end="")
    print(f"default run: {secs:.2f} s")
    # The default buffer is 4x the largest cache: this VM reports a 508 MB
    # L3, hence 2 GiB, whose page faults alone take seconds here. Under 10 s
    # up to 1 GiB, then 5 s more per GiB: the time must follow the buffer.
    m = re.search(r"buffer (\d+) (MiB|GiB)", p.stdout)
    check(m is not None, "no buffer size printed")
    gib = int(m.group(1)) / (1024 if m.group(2) == "MiB" else 1)
    limit = 10 + 5 * max(0.0, gib - 1)
    check(secs < limit, f"default `probe latency` took {secs:.1f} s (limit {limit:.0f} s for {gib:g} GiB)")
    check("ns per access" in p.stdout, "no figure printed")
    j, _ = latency_json("--buffer", "65536", "--workload", "16384", "--repeat", "3")
    check(j["latency_ns"]["median"] > 0, "median not positive")
    check(len(j["latency_ns"]["samples"]) == 3, "want 3 repetitions")
    pl = j["placement"]
    if pl is not None:
        check(pl["on_node"] == pl["sampled_pages"], f"pages off node: {pl}")


def case_latency_noise():
    ncpu = len(os.sched_getaffinity(0))
    for mode in ("spread", "overload"):
        j, secs = latency_json("--noise", mode, "--buffer", "65536", "--workload", "16384", "--repeat", "3")
        check(j["loaders_running"] == ncpu - 1, f"{mode}: {j['loaders_running']} loaders for {ncpu} PUs")
        check(len(j["config"]["loaders"]) == ncpu - 1, f"{mode}: loader plan")
        test_pu = j["config"]["pu"]
        check(all(l["pu"] != test_pu for l in j["config"]["loaders"]), f"{mode}: a loader on the test PU")
        print(f"{mode}: {j['latency_ns']['median']:.1f} ns with {j['loaders_running']} loaders, {secs:.1f} s")


def plateaus(j):
    return {p["level"]: p["ns"] for p in j["plateaus"]}


def case_sweep_plateaus():
    # Ordering of the plateaus with margins: L1 < L2 < L3 <= DRAM. On hosts
    # where the last-level cache is shared with busy neighbours (VMs), L3 may
    # sit close to DRAM; L2 is always well below DRAM.
    last = None
    for attempt in range(2):
        p, secs = run("latency", "--sweep", "--json")
        check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        j = json.loads(p.stdout)
        pl = plateaus(j)
        print(f"attempt {attempt + 1}: {secs:.1f} s, plateaus " + ", ".join(f"{k} {v:.1f} ns" for k, v in pl.items()))
        levels = [p["level"] for p in j["plateaus"]]
        check(levels[-1] == "DRAM", f"no DRAM plateau: {levels}")
        caches = [c["size_bytes"] for c in j["caches"]]
        check(caches == sorted(caches), f"cache sizes not increasing: {caches}")
        for p_, c in zip(j["plateaus"], j["caches"]):
            check(p_["cache_bytes"] == c["size_bytes"], "plateau sizes are not hwloc's")
        seq = [pl[l] for l in levels]
        ok = True
        for i in range(1, len(seq)):
            lo, hi = seq[i - 1], seq[i]
            if levels[i] == "DRAM" and levels[i - 1] == "L3":
                # A last-level cache shared with busy neighbours (this CI VM)
                # can be indistinguishable from DRAM: only "not clearly above".
                ok &= hi * 1.15 > lo
                if hi <= lo:
                    print(f"note: L3 plateau ({lo:.1f} ns) not below DRAM ({hi:.1f} ns) on this host")
            else:
                ok &= hi > lo * 1.2
        if "L1" in pl and "L2" in pl:
            ok &= pl["L2"] > 1.5 * pl["L1"]
        if "L2" in pl:
            ok &= pl["DRAM"] > 3 * pl["L2"]
        if ok:
            return
        last = pl
    fail(f"plateaus not increasing: {last}")


def case_repeatable():
    # Default DRAM latency, three runs: the medians agree within 10 % (two
    # runs closest to each other; the spread of all three is printed).
    meds = []
    for _ in range(3):
        j, _ = latency_json()
        meds.append(j["latency_ns"]["median"])
    meds.sort()
    print("medians:", ", ".join(f"{m:.1f}" for m in meds), f"spread {meds[-1] / meds[0] - 1:.1%}")
    closest = min(meds[1] / meds[0], meds[2] / meds[1])
    check(closest <= 1.10, f"no two runs within 10 %: {meds}")


def case_matrix():
    _, nodes = topology()
    p, secs = run("matrix", "--buffer", "65536", "--workload", "8192", "--repeat", "3", "--bandwidth-seconds", "0.1")
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    print(p.stdout, end="")
    out = p.stdout
    check("idle latency (ns)" in out and "read bandwidth" in out, "tables missing")
    if len(nodes) == 1:
        check(out.count("not applicable") == 1, "one node: 'not applicable' must be said exactly once")
        check("remote n/a" in out, "one node: remote must be n/a")
    p, _ = run("matrix", "--json", "--buffer", "65536", "--workload", "8192", "--repeat", "3", "--bandwidth-seconds", "0.1")
    j = json.loads(p.stdout)
    for i, c in enumerate(j["cpu_nodes"]):
        for k, m in enumerate(j["memory_nodes"]):
            check(j["latency_ns"]["idle"][i][k] is not None, f"idle latency {c}->{m} missing")
            check(j["bandwidth_gbps"]["read"][i][k] > 0, f"read bandwidth {c}->{m}")
    if len(nodes) == 1:
        check(j["summary"]["remote_latency_ns"] is None, "one node: remote must be null")


def case_calibrate():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "host.json")
        p, secs = run("calibrate", path, "--buffer", "65536", "--workload", "8192", "--repeat", "3",
                      "--bandwidth-seconds", "0.1")
        check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        with open(path) as f:
            j = json.load(f)
        for key in ("format", "version", "date", "host", "tool", "topology", "cpu_nodes", "memory_nodes",
                    "latency_ns", "bandwidth_gbps", "summary", "notes"):
            check(key in j, f"calibration file lacks {key}")
        check(j["format"] == "numaperf-calibration" and j["version"] == 1, "format/version")
        check(j["host"] == os.uname().nodename, f"host {j['host']}")
        check(j["date"].endswith("Z") and "T" in j["date"], f"date {j['date']}")
        check(len(j["topology"]["nodes"]) >= 1, "topology nodes")
        check(not [x for x in os.listdir(d) if x != "host.json"], "temporary file left behind")
        print(f"calibrate: {secs:.1f} s, local {j['summary']['local_latency_ns']:.1f} ns")


def case_help():
    for sub in ("latency", "matrix", "calibrate"):
        p, _ = run(sub, "--help")
        check(p.returncode == 0 and "--buffer" in p.stdout, f"{sub} --help")


if __name__ == "__main__":
    globals()["case_" + sys.argv[2]]()
    print("PASS")
