#!/usr/bin/env python3
"""numaperf overhead benchmark harness.

Builds every workload of benchmarks/workloads three ways:
  native    plain clang -O2
  numaperf  the numaperf-clang / numaperf-clang++ wrappers (pass + libnumaperf.so)
  floor     the same pass and flags, linked against benchmarks/floor/noop_hooks.c
            (every hook empty): the cost of the inserted calls alone
runs them alternately, and prints per workload the median native time, the
time ratios of numaperf and of the floor, the peak-RSS ratio, and the
build-time and binary-size ratios, then geometric means and worst cases. It
checks that numaperf does not change program output (checksums) and that the
numaperf reports still find the NUMA issues planted in the sources
(`// PLANTED: kind[, kind]` on an allocation or definition line).

Exit status: 0 all good; 1 a profiler problem (numaperf or floor build
failed, crashed, timed out or changed the checksum; a planted issue of a
detectable kind missed); 2 an environment problem (usage, a native build
failed or crashed, or a workload's native checksum is not reproducible).
See docs/benchmarks.md.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

from plants import find_plants, issue_matches
from stats import geomean, paired_ratio, spread

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
WORKLOADS_DIR = os.path.join(HERE, "workloads")
VARIANTS = ("native", "numaperf", "floor")

# name, source, default arguments (besides threads), tiny arguments for --quick,
# extra compile/link flags. Defaults also live in the sources; they are
# repeated here so that a result file records exactly what ran.
WORKLOADS = [
    dict(name="blackscholes", src="blackscholes.c", args=dict(options=65536, iters=550),
         quick=dict(options=4096, iters=4), flags=["-lm"],
         stresses="compute-bound option pricing, few accesses per flop"),
    dict(name="montecarlo", src="montecarlo.cpp", args=dict(paths=1000000, steps=64),
         quick=dict(paths=4000, steps=32), flags=[],
         stresses="many small heap accesses in inner loops (per-path vectors)"),
    dict(name="stencil", src="stencil.c", args=dict(n=2048, iters=300),
         quick=dict(n=512, iters=4), flags=[],
         stresses="streaming 5-point stencil, vectorised unit-stride loops"),
    dict(name="graph", src="graph.c", args=dict(nodes=1 << 21, steps=8000000),
         quick=dict(nodes=1 << 15, steps=100000), flags=[],
         stresses="random pointer chasing over a large graph"),
    dict(name="hashtable", src="hashtable.cpp", args=dict(keys=100000, rounds=4, lookups=4),
         quick=dict(keys=5000, rounds=2, lookups=2), flags=[],
         stresses="hash-table inserts and lookups, striped locks"),
    dict(name="particles", src="particles.cpp", args=dict(particles=400000, grid=256, steps=28),
         quick=dict(particles=20000, grid=64, steps=2), flags=[],
         stresses="particle-in-cell mesh with per-cell locks"),
    dict(name="pipeline", src="pipeline.cpp", args=dict(blocks=80000, work=4),
         quick=dict(blocks=2000, work=1), flags=[],
         stresses="three-stage pipeline with bounded queues"),
    dict(name="histogram", src="histogram.c", args=dict(bins=4096, samples=14000000),
         quick=dict(bins=1024, samples=100000), flags=[],
         stresses="shared bins with atomic increments, per-thread counters"),
    dict(name="omp_nest", src="omp_nest.c", args=dict(n=1536, iters=54),
         quick=dict(n=256, iters=2), flags=["-fopenmp"],
         stresses="OpenMP parallel-for loop nest (5x5 convolution)"),
    dict(name="matmul", src="matmul.c", args=dict(n=1600),
         quick=dict(n=192), flags=[],
         stresses="large dense matrix multiply, tight vectorised loop"),
]
QUICK_WORKLOADS = ("graph", "pipeline")

TARGETS = dict(geomean=2.0, worst=4.0, rss_factor=1.2, rss_extra_mib=64)
# Native runs of one workload further apart than this (slowest/fastest) are
# flagged: on a quiet machine three repetitions stay within a few percent.
NOISY_SPREAD = 1.25

CHECKSUM_RE = re.compile(r"^checksum:\s*(\S+)\s*$", re.M)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_capture(cmd, env=None, timeout=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return 124, "timed out after %s s" % timeout
    except OSError as e:
        return 127, str(e)


def real_compiler(wrapper):
    """The compiler the wrapper runs (what native and floor must use too)."""
    env = dict(os.environ, NUMAPERF_DISABLE="1", NUMAPERF_WRAPPER_VERBOSE="1")
    rc, out = run_capture([wrapper, "--version"], env)
    m = re.search(r"\[disabled\]\s+(\S+)", out)
    return m.group(1) if m else None


def binary_size(path):
    """Allocated (text + data + bss) bytes, from size(1); file size as fallback."""
    rc, out = run_capture(["size", "-B", path])
    if rc == 0:
        lines = out.strip().splitlines()
        if len(lines) >= 2:
            try:
                return int(lines[1].split()[3])
            except (ValueError, IndexError):
                pass
    return os.path.getsize(path)


def timed_run(measure, cmd, env, timeout, out_path):
    """Runs cmd through the measure launcher; returns (status dict, wall seconds,
    peak RSS KiB, stdout text)."""
    res_path = out_path + ".measure"
    if os.path.exists(res_path):
        os.unlink(res_path)
    with open(out_path, "w") as out, open(out_path + ".err", "w") as err:
        try:
            proc = subprocess.Popen([measure, res_path] + cmd, stdout=out, stderr=err, env=env,
                                    start_new_session=True)
        except OSError as e:
            return dict(status="crashed", detail=str(e)), None, None, ""
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        except BaseException:  # Ctrl-C or SIGTERM: do not leave the workload running
            timed_out = None
        if timed_out is not False:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.wait()
            if timed_out is None:
                raise KeyboardInterrupt
    with open(out_path) as f:
        text = f.read()
    if timed_out:
        return dict(status="timeout", detail="killed after %ds" % timeout), None, None, text
    try:
        with open(res_path) as f:
            fields = dict(kv.split("=", 1) for kv in f.read().split())
        status, wall, rss = int(fields["status"]), int(fields["wall_ns"]) / 1e9, \
            int(fields["maxrss_kib"])
        cpu = int(fields["cpu_ns"]) / 1e9
    except (OSError, ValueError, KeyError) as e:
        return dict(status="crashed", detail="no measurement (%s)" % e), None, None, text
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return dict(status="crashed", detail="signal %d (%s)" % (sig, signal.Signals(sig).name)), \
            wall, rss, text
    code = os.WEXITSTATUS(status)
    if code != 0:
        with open(out_path + ".err") as f:
            tail = f.read().strip().splitlines()[-3:]
        return dict(status="crashed", detail="exit %d: %s" % (code, " | ".join(tail))), \
            wall, rss, text
    return dict(status="ok", cpu_seconds=cpu), wall, rss, text


class Harness:
    def __init__(self, opts):
        self.o = opts
        self.build_dir = os.path.abspath(opts.build_dir)
        self.work = os.path.abspath(opts.work_dir)
        self.wrapper_cc = os.path.join(self.build_dir, "bin", "numaperf-clang")
        self.wrapper_cxx = os.path.join(self.build_dir, "bin", "numaperf-clang++")
        self.plugin = os.path.join(self.build_dir, "lib", "numaperf", "NumaPerfPass.so")
        self.runtime = os.path.join(self.build_dir, "lib", "libnumaperf.so")
        self.cc = opts.cc or real_compiler(self.wrapper_cc) or "clang"
        self.cxx = opts.cxx or real_compiler(self.wrapper_cxx) or "clang++"
        self.noop = os.path.join(self.work, "floor", "libnumaperf_noop.so")
        self.measure = os.path.join(self.work, "measure")
        self.line_transfer = os.path.join(self.work, "line_transfer")
        self.failures = []      # profiler problems -> exit 1
        self.env_problems = []  # environment problems -> exit 2

    def check_setup(self):
        missing = [p for p in (self.wrapper_cc, self.wrapper_cxx, self.plugin, self.runtime)
                   if not os.path.exists(p)]
        if missing:
            log("numaperf build incomplete, missing: " + ", ".join(missing))
            log("build it first: cmake -S %s -B %s -G Ninja && cmake --build %s"
                % (REPO, self.build_dir, self.build_dir))
            return False
        os.makedirs(os.path.join(self.work, "floor"), exist_ok=True)
        cmd = [self.cc, "-O2", "-fPIC", "-shared", "-I", os.path.join(REPO, "include"),
               os.path.join(HERE, "floor", "noop_hooks.c"), "-o", self.noop]
        rc, out = run_capture(cmd)
        if rc != 0:
            log("cannot build the no-op hooks library:\n" + out)
            return False
        rc, out = run_capture([self.cc, "-O2", os.path.join(HERE, "tools", "measure.c"),
                               "-o", self.measure])
        if rc != 0:
            log("cannot build the measure launcher:\n" + out)
            return False
        rc, out = run_capture([self.cc, "-O2", "-pthread", os.path.join(HERE, "tools", "line_transfer.c"),
                               "-o", self.line_transfer])
        if rc != 0:
            log("cannot build the line-transfer probe:\n" + out)
            return False
        return True

    def line_transfer_ns(self):
        """What a cache line costs to move between two CPUs right now
        (tools/line_transfer.c), or None."""
        rc, out = run_capture([self.line_transfer], timeout=30)  # a few ms normally
        m = re.search(r"line_transfer_ns=([0-9.]+)", out) if rc == 0 else None
        return float(m.group(1)) if m else None

    def build_cmd(self, w, variant, out):
        src = os.path.join(WORKLOADS_DIR, w["src"])
        cxx = w["src"].endswith(".cpp")
        common = ["-O2", "-pthread", "-I", WORKLOADS_DIR]
        if cxx:
            common.append("-std=c++17")
        tail = [src, "-o", out] + w["flags"]
        if variant == "native":
            return [self.cxx if cxx else self.cc] + common + tail
        if variant == "numaperf":
            return [self.wrapper_cxx if cxx else self.wrapper_cc] + common + tail
        # floor: what the wrapper adds at compile time, the no-op library at link time
        return ([self.cxx if cxx else self.cc, "-fpass-plugin=" + self.plugin, "-g",
                 "-fno-omit-frame-pointer"] + common + tail +
                [self.noop, "-Wl,-rpath," + os.path.dirname(self.noop)])

    def build(self, w):
        res = {}
        for v in VARIANTS:
            out = os.path.join(self.work, v, w["name"])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            if os.path.exists(out):
                os.unlink(out)
            cmd = self.build_cmd(w, v, out)
            env = dict(os.environ)
            env.pop("NUMAPERF_DISABLE", None)
            start = time.perf_counter()
            rc, text = run_capture(cmd, env)
            secs = time.perf_counter() - start
            if rc != 0 or not os.path.exists(out):
                res[v] = dict(ok=False, command=cmd, error=text.strip()[-2000:])
                log("  build %-8s FAILED (%s)" % (v, text.strip().splitlines()[-1:]))
            else:
                res[v] = dict(ok=True, command=cmd, seconds=secs, path=out,
                              size=binary_size(out), file_size=os.path.getsize(out))
        return res

    def args_for(self, w):
        args = dict(w["quick"] if self.o.quick else w["args"])
        args["threads"] = self.o.threads
        return args

    def run_workload(self, w, builds):
        args = self.args_for(w)
        argv = ["%s=%s" % kv for kv in sorted(args.items())]
        runs = {v: [] for v in VARIANTS}
        rundir = os.path.join(self.work, "runs", w["name"])
        shutil.rmtree(rundir, ignore_errors=True)
        os.makedirs(rundir)
        for rep in range(self.o.reps):
            order = VARIANTS[rep % 3:] + VARIANTS[:rep % 3]  # rotate to spread drift
            for v in order:
                if not builds[v]["ok"]:
                    continue
                base = os.path.join(rundir, "%s-%d" % (v, rep))
                env = dict(os.environ)
                for k in list(env):
                    if k.startswith("NUMAPERF_"):
                        del env[k]
                if v == "numaperf":
                    env["NUMAPERF_JSON"] = base + ".json"
                    env["NUMAPERF_REPORT"] = base + ".report.txt"
                st, wall, rss, text = timed_run(self.measure, [builds[v]["path"]] + argv, env,
                                                self.o.timeout, base + ".out")
                m = CHECKSUM_RE.search(text)
                st.update(seconds=wall, max_rss_kib=rss, checksum=m.group(1) if m else None)
                if st["status"] == "ok" and not m:
                    st.update(status="crashed", detail="no checksum line in output")
                if v == "numaperf":
                    st["profile"] = base + ".json"
                runs[v].append(st)
                log("  %-8s rep %d: %-7s %7.3fs %7.1f MiB %s" % (
                    v, rep + 1, st["status"], wall or 0, (rss or 0) / 1024.0,
                    st.get("detail", "")))
        return argv, runs

    def check_plants(self, w, runs):
        plants = find_plants(os.path.join(WORKLOADS_DIR, w["src"]))
        profiles = []
        for st in runs["numaperf"]:
            if st["status"] != "ok":
                continue
            try:
                with open(st["profile"]) as f:
                    profiles.append(json.load(f))
            except (OSError, ValueError) as e:
                profiles.append(None)
                st["profile_error"] = str(e)
        results = []
        for p in plants:
            r = dict(p)
            vocab = set()
            hits = 0
            for prof in profiles:
                if prof is None:
                    continue
                vocab |= set((prof.get("thresholds") or {}).keys())
                if any(issue_matches(i, p) for i in prof.get("issues", [])):
                    hits += 1
            if not profiles or all(x is None for x in profiles):
                r["status"] = "no profile"
            elif p["kind"] not in vocab:
                r["status"] = "not yet detectable"
            elif hits == len(profiles):
                r["status"] = "found"
            elif hits == 0:
                r["status"] = "missed"
            else:
                r["status"] = "flaky %d/%d" % (hits, len(profiles))
            results.append(r)
        issues = [len(prof.get("issues", [])) for prof in profiles if prof]
        return results, (issues[0] if issues else None)

    def summarise(self, w, builds, runs):
        s = dict(name=w["name"])
        med = {}
        for v in VARIANTS:
            ok = [r for r in runs[v] if r["status"] == "ok"]
            if runs[v] and len(ok) == len(runs[v]):
                med[v] = dict(seconds=statistics.median(r["seconds"] for r in ok),
                              cpu_seconds=statistics.median(r["cpu_seconds"] for r in ok),
                              rss_kib=statistics.median(r["max_rss_kib"] for r in ok))
        s["median"] = med
        status = []
        for v in VARIANTS:
            if not builds[v]["ok"]:
                status.append("%s build failed" % v)
            elif any(r["status"] != "ok" for r in runs[v]):
                bad = [r for r in runs[v] if r["status"] != "ok"][0]
                status.append("%s %s" % (v, bad["status"]))
        native_sums = {r["checksum"] for r in runs["native"] if r["status"] == "ok"}
        if len(native_sums) > 1:
            status.append("native checksum not reproducible")
        for v in ("numaperf", "floor"):
            sums = {r["checksum"] for r in runs[v] if r["status"] == "ok"}
            if native_sums and sums and sums != native_sums:
                status.append("%s checksum differs" % v)
        s["problems"] = status
        n = med.get("native")
        if n:
            for v in ("numaperf", "floor"):
                if v in med:
                    s[v + "_ratio"] = med[v]["seconds"] / n["seconds"]
            for v in ("numaperf", "floor"):
                if v in med and n["cpu_seconds"] > 0:
                    s[v + "_cpu_ratio"] = med[v]["cpu_seconds"] / n["cpu_seconds"]
            paired = paired_ratio(runs["numaperf"], runs["native"])
            if paired is not None:
                s["numaperf_paired_ratio"] = paired
            native_spread = spread(runs["native"])
            if native_spread is not None:
                s["native_spread"] = native_spread
            if "numaperf" in med:
                s["rss_ratio"] = med["numaperf"]["rss_kib"] / n["rss_kib"]
                limit = TARGETS["rss_factor"] * n["rss_kib"] + TARGETS["rss_extra_mib"] * 1024
                s["rss_within_target"] = med["numaperf"]["rss_kib"] <= limit
        if builds["native"]["ok"]:
            for v in ("numaperf", "floor"):
                if builds[v]["ok"]:
                    s[v + "_build_ratio"] = builds[v]["seconds"] / builds["native"]["seconds"]
                    s[v + "_size_ratio"] = builds[v]["size"] / builds["native"]["size"]
        for p in status:
            if p.startswith("native"):
                self.env_problems.append("%s: %s" % (w["name"], p))
            else:
                self.failures.append("%s: %s" % (w["name"], p))
        return s

    def main(self):
        if not self.check_setup():
            return 2
        selected = [w for w in WORKLOADS
                    if (not self.o.only or w["name"] in self.o.only)
                    and (not self.o.quick or self.o.only or w["name"] in QUICK_WORKLOADS)]
        import selective
        region_name = selective.REGION_PROGRAM["name"]
        unknown = set(self.o.only or []) - {w["name"] for w in WORKLOADS} - {region_name}
        if unknown:
            log("unknown workload(s): %s (known: %s)" % (
                ", ".join(sorted(unknown)),
                ", ".join([w["name"] for w in WORKLOADS] + [region_name + " (with --selective)"])))
            return 2
        if self.o.only and region_name in self.o.only and not self.o.selective:
            log("%s is measured only with --selective" % region_name)
            return 2
        log("numaperf benchmarks: %d workload(s), %d repetition(s), %d threads%s" % (
            len(selected), self.o.reps, self.o.threads, ", quick sizes" if self.o.quick else ""))
        log("compilers: %s / %s; numaperf build: %s" % (self.cc, self.cxx, self.build_dir))
        results = []
        for w in selected:
            log("%s:" % w["name"])
            load_before = loadavg()
            transfer_before = self.line_transfer_ns()
            builds = self.build(w)
            if builds["native"]["ok"]:
                argv, runs = self.run_workload(w, builds)
            else:
                argv, runs = [], {v: [] for v in VARIANTS}
            s = self.summarise(w, builds, runs)
            s["plants"], s["issues_reported"] = self.check_plants(w, runs)
            for p in s["plants"]:
                if p["status"] in ("missed", "no profile") or p["status"].startswith("flaky"):
                    self.failures.append("%s: planted %s at %s:%d %s" % (
                        w["name"], p["kind"], p["file"], p["line"], p["status"]))
            s["loadavg"] = [load_before, loadavg()]
            s["line_transfer_ns"] = [transfer_before, self.line_transfer_ns()]
            s.update(source=w["src"], args=argv, stresses=w["stresses"], builds=builds, runs=runs)
            results.append(s)
        summary = self.print_table(results) if results else {}
        if self.o.selective:  # benchmarks/selective.py: profiling off, derived filter
            summary["selective"] = selective.run(
                self, selected, results, timed_run, log,
                region_program=not self.o.only or region_name in self.o.only)
        if not self.o.no_json:
            self.write_json(results, summary)
        if self.failures:
            log("\nFAILED (profiler problems):\n  " + "\n  ".join(self.failures))
        if self.env_problems:
            log("\nENVIRONMENT problems:\n  " + "\n  ".join(self.env_problems))
        return 1 if self.failures else 2 if self.env_problems else 0

    def print_table(self, results):
        def fx(x, fmt="%.2fx"):
            return fmt % x if x is not None else "-"

        hdr = "%-13s %9s %9s %8s %8s %7s %7s %7s  %-9s %s" % (
            "workload", "native s", "numaperf", "(cpu)", "floor", "RSS", "build", "size",
            "planted", "status")
        lines = [hdr, "-" * len(hdr)]
        for s in results:
            pl = s["plants"]
            det = [p for p in pl if p["status"] != "not yet detectable"]
            found = sum(p["status"] == "found" for p in det)
            nyd = len(pl) - len(det)
            plant_txt = "-" if not pl else "%d/%d%s" % (found, len(det), " +%d" % nyd if nyd else "")
            status = "ok" if not s["problems"] else "; ".join(s["problems"])
            nat = s["median"].get("native")
            lines.append("%-13s %9s %9s %8s %8s %7s %7s %7s  %-8s %s" % (
                s["name"], "%.3f" % nat["seconds"] if nat else "-",
                fx(s.get("numaperf_ratio")), fx(s.get("numaperf_cpu_ratio")),
                fx(s.get("floor_ratio")), fx(s.get("rss_ratio")),
                fx(s.get("numaperf_build_ratio")), fx(s.get("numaperf_size_ratio")),
                plant_txt, status))
        lines.append("-" * len(hdr))
        summary = {}
        for key, label in (("numaperf_ratio", "numaperf"), ("numaperf_cpu_ratio", "numaperf cpu"),
                           ("numaperf_paired_ratio", "paired"), ("floor_ratio", "floor"),
                           ("rss_ratio", "peak RSS"), ("numaperf_build_ratio", "build time"),
                           ("numaperf_size_ratio", "binary size")):
            vals = [(s[key], s["name"]) for s in results if s.get(key)]
            if not vals:
                continue
            g = geomean([v for v, _ in vals])
            worst = max(vals)
            summary[key] = dict(geomean=g, worst=worst[0], worst_workload=worst[1], count=len(vals))
            lines.append("%-12s geomean %6.2fx   worst %6.2fx (%s)" % (label, g, worst[0], worst[1]))
        rss_over = [s["name"] for s in results if s.get("rss_within_target") is False]
        if "numaperf_ratio" in summary:
            t = summary["numaperf_ratio"]
            lines.append(
                "targets: geomean <= %.1fx %s; worst <= %.0fx %s; peak RSS <= %.1fx native + %d MiB %s"
                % (TARGETS["geomean"], "met" if t["geomean"] <= TARGETS["geomean"] else "NOT met",
                   TARGETS["worst"], "met" if t["worst"] <= TARGETS["worst"] else "NOT met",
                   TARGETS["rss_factor"], TARGETS["rss_extra_mib"],
                   "met" if not rss_over else "NOT met (%s)" % ", ".join(rss_over)))
        summary["rss_over_target"] = rss_over
        transfers = [x for s in results for x in s.get("line_transfer_ns", []) if x is not None]
        if transfers:
            summary["line_transfer_ns"] = [min(transfers), max(transfers)]
            # A VM's vCPUs may sit on sibling hyperthreads or far apart, and
            # move while measuring: contended lines and shared pages cost
            # with it (docs/benchmarks.md, "Session 19").
            lines.append("cache line moved between two CPUs in %.0f-%.0f ns during the run%s" % (
                min(transfers), max(transfers),
                " (it changed: compare workloads measured at similar values)"
                if max(transfers) > 1.5 * min(transfers) else ""))
        noisy = ["%s %.2fx" % (s["name"], s["native_spread"]) for s in results
                 if s.get("native_spread", 1) > NOISY_SPREAD]
        if noisy:
            # docs/benchmarks.md "Reading the numbers": the paired figure takes
            # each repetition's native and numaperf runs together.
            lines.append("noisy: the native runs' slowest/fastest was %s: their ratios are "
                         "uncertain (the paired geomean pairs each repetition's runs)"
                         % ", ".join(noisy))
        loads = [x for s in results for x in s.get("loadavg", []) if x is not None]
        cpus = os.cpu_count() or 1
        if loads and max(loads) > cpus + 0.5:
            lines.append("warning: load average reached %.1f on %d CPUs while measuring: other "
                         "processes were running; times are inflated and noisy (the cpu column "
                         "is less affected)" % (max(loads), cpus))
        if self.o.threads > cpus:
            # docs/benchmarks.md "Session 11": at 4 threads on 2 CPUs histogram
            # cost 6-8x, at 2 threads 16-34x.
            lines.append("note: %d threads on %d CPUs: the workers take turns more than they run "
                         "together, which understates what contended lines cost; --threads %d "
                         "shows it" % (self.o.threads, cpus, cpus))
        plants = [dict(p, workload=s["name"]) for s in results for p in s["plants"]]
        if plants:
            lines.append("planted issues (table: found/checked, +N of kinds the runtime does not "
                         "report yet):")
            for p in plants:
                lines.append("  %-13s %-15s %-18s %s" % (
                    p["workload"], p["kind"], "%s:%d" % (p["file"], p["line"]), p["status"]))
        summary["plants"] = plants
        print("\n" + "\n".join(lines), flush=True)
        return summary

    def write_json(self, results, summary):
        now = datetime.datetime.now()
        path = self.o.json
        if not path:
            d = os.path.join(self.work if self.o.quick else os.path.join(HERE, "results"))
            os.makedirs(d, exist_ok=True)
            path = os.path.join(d, "%s-%s%s.json" % (
                now.strftime("%Y%m%d-%H%M%S"), platform.node() or "host",
                "-quick" if self.o.quick else ""))
        rc, head = run_capture(["git", "-C", REPO, "rev-parse", "HEAD"])
        rc2, dirty = run_capture(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"])
        rc3, ccver = run_capture([self.cc, "--version"])
        doc = dict(
            schema=1, date=now.isoformat(timespec="seconds"),
            machine=dict(host=platform.node(), cpus=os.cpu_count(), cpu=cpu_model(),
                         kernel=platform.release(), mem_total_kib=mem_total()),
            repo=dict(commit=head.strip() if rc == 0 else None,
                      dirty=bool(dirty.strip()) if rc2 == 0 else None),
            compiler=ccver.splitlines()[0] if rc3 == 0 and ccver else self.cc,
            build_dir=self.build_dir,
            options=dict(reps=self.o.reps, threads=self.o.threads, quick=self.o.quick,
                         timeout=self.o.timeout),
            targets=TARGETS, summary=summary, workloads=results,
            failures=self.failures, environment_problems=self.env_problems, note=self.o.note)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        log("results written to %s" % path)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def mem_total():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Build the numaperf benchmark workloads natively, with numaperf and with "
                    "no-op hooks; run them alternately and compare time, memory, build cost "
                    "and the planted issues found.")
    ap.add_argument("--build-dir", default=os.environ.get("NUMAPERF_BUILD_DIR",
                                                          os.path.join(REPO, "build")),
                    help="numaperf build tree with bin/numaperf-clang (default: %(default)s)")
    ap.add_argument("--reps", type=int, default=None, help="repetitions per variant (default 3)")
    ap.add_argument("--threads", type=int, default=4, help="threads per workload (default 4)")
    ap.add_argument("--only", type=lambda s: [x for x in s.split(",") if x],
                    help="comma-separated workload names")
    ap.add_argument("--quick", action="store_true",
                    help="smoke mode: %s, 1 repetition, tiny sizes" % " and ".join(QUICK_WORKLOADS))
    ap.add_argument("--timeout", type=int, default=300, help="seconds per run (default 300)")
    ap.add_argument("--work-dir", default=os.path.join(HERE, "build"),
                    help="binaries, outputs and profiles (default: %(default)s)")
    ap.add_argument("--json", help="result file (default: benchmarks/results/<date>-<host>.json; "
                                   "with --quick, in the work dir)")
    ap.add_argument("--no-json", action="store_true", help="do not write a result file")
    ap.add_argument("--note", help="free text stored in the result file (e.g. which numaperf "
                                   "commit the build dir holds)")
    ap.add_argument("--cc", help="native C compiler (default: the one numaperf-clang runs)")
    ap.add_argument("--cxx", help="native C++ compiler (default: the one numaperf-clang++ runs)")
    ap.add_argument("--list", action="store_true", help="list the workloads and exit")
    ap.add_argument("--selective", action="store_true",
                    help="also measure the numaperf build with profiling off (NUMAPERF_ACTIVE=0) "
                         "and with a filter from `numaperf select` (benchmarks/selective.py)")
    ap.add_argument("--baseline-build-dir",
                    help="with --selective: also build each workload with this numaperf build "
                         "tree (e.g. an older commit) and measure it with profiling off in the "
                         "same rotation (column off-base/nat)")
    o = ap.parse_args(argv)
    if o.baseline_build_dir and not o.selective:
        ap.error("--baseline-build-dir needs --selective")
    if o.reps is None:
        o.reps = 1 if o.quick else 3
    if o.reps < 1 or o.threads < 1:
        ap.error("--reps and --threads must be positive")
    return o


def main(argv):
    o = parse_args(argv)
    if o.list:
        for w in WORKLOADS:
            plants = find_plants(os.path.join(WORKLOADS_DIR, w["src"]))
            print("%-13s %-16s %s%s" % (w["name"], w["src"], w["stresses"],
                                        "; planted: " + ", ".join(p["kind"] for p in plants)
                                        if plants else ""))
        import selective
        r = selective.REGION_PROGRAM
        print("%-13s %-16s %s (with --selective only)" % (r["name"], r["src"], r["stresses"]))
        return 0
    return Harness(o).main()


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        log("interrupted")
        sys.exit(130)
