#!/usr/bin/env python3
"""End-to-end cases: build a program from programs/ with the numaperf compiler
wrappers, run it, and check its exit status, stderr and JSON profile.

Expected results are written next to the code they are about: a comment
`EXPECT: KIND [global NAME] [fix=FIX]` on the allocation or definition line.
Usage: run_case.py --build-dir DIR CASE
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")


class Failure(Exception):
    pass


def _no_core_files():
    import resource
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def check(cond, message):
    if not cond:
        raise Failure(message)


def expected_signature(source):
    """The SIGNATURE marker: {"read": {class: share}, "write": {...}, "dominant": class,
    "static_thread": index or None}. Classes not named are expected at 0."""
    with open(os.path.join(PROGRAMS, source)) as f:
        for text in f:
            m = re.search(r"SIGNATURE: (.*)", text)
            if not m:
                continue
            out = {"read": {}, "write": {}, "dominant": None, "static_thread": None}
            kind = None
            for word in m.group(1).split():
                if word in ("read", "write"):
                    kind = word
                elif word.startswith("dominant="):
                    out["dominant"] = word.split("=", 1)[1]
                elif word.startswith("static_thread="):
                    out["static_thread"] = int(word.split("=", 1)[1])
                else:
                    name, value = word.split("=")
                    out[kind][name] = float(value)
            return out
    raise Failure("no SIGNATURE marker in " + source)


def expected_sites(source):
    """(kind, line, global name or None, fix or None) for each EXPECT marker."""
    sites = []
    with open(os.path.join(PROGRAMS, source)) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"EXPECT: (\w+)(?: global (\w+))?(?: fix=(\w+))?", text)
            if m:
                sites.append((m.group(1), number, m.group(2), m.group(3)))
    return sites


class Case:
    def __init__(self, build_dir, work):
        self.bin = os.path.join(build_dir, "bin")
        self.work = work

    def compile(self, sources, output, cxx=False, extra=()):
        cc = os.path.join(self.bin, "numaperf-clang++" if cxx else "numaperf-clang")
        cmd = [cc, "-O2", "-pthread", *extra, *[os.path.join(PROGRAMS, s) for s in sources],
               "-o", os.path.join(self.work, output)]
        r = subprocess.run(cmd, cwd=self.work, capture_output=True, text=True)
        check(r.returncode == 0, "compile failed: %s\n%s" % (" ".join(cmd), r.stderr))
        return os.path.join(self.work, output)

    def compile_native(self, sources, output, extra=()):
        """The same program without numaperf, to compare behaviour with."""
        cmd = [shutil.which("clang") or "cc", "-O2", "-pthread", *extra,
               *[os.path.join(PROGRAMS, s) for s in sources], "-o", os.path.join(self.work, output)]
        r = subprocess.run(cmd, cwd=self.work, capture_output=True, text=True)
        check(r.returncode == 0, "native compile failed: %s\n%s" % (" ".join(cmd), r.stderr))
        return os.path.join(self.work, output)

    def run(self, exe, env=None, expect_status=0, args=()):
        """Runs exe in the work directory; a negative expect_status is death
        by that signal (no core file is written)."""
        full_env = dict(os.environ)
        for k in ("NUMAPERF_JSON", "NUMAPERF_REPORT", "NUMAPERF_ACTIVE",
                  "NUMAPERF_ACTIVE_REGIONS", "NUMAPERF_TOGGLE_SIGNAL", "NUMAPERF_SAMPLE_PAGES",
                  "NUMAPERF_SAMPLE_MIN_KIB"):
            full_env.pop(k, None)
        full_env.update(env or {})
        r = subprocess.run([exe, *args], cwd=self.work, capture_output=True, text=True,
                           env=full_env, timeout=120, preexec_fn=_no_core_files)
        check(r.returncode == expect_status,
              "exit status %d, expected %d\nstderr:\n%s" % (r.returncode, expect_status, r.stderr))
        return r

    def profile(self, exe_name):
        found = [f for f in os.listdir(self.work)
                 if f.startswith("numaperf-%s-" % exe_name) and f.endswith(".json")]
        check(len(found) == 1, "expected one profile for %s, found %s" % (exe_name, found))
        with open(os.path.join(self.work, found[0])) as f:
            return json.load(f)


def check_issues_match_markers(profile, source):
    expected = expected_sites(source)
    issues = profile["issues"]
    check(profile["schema_version"] == 1, "schema_version is not 1")
    check(len(issues) == len(expected),
          "expected %d issue(s), got %d: %s" % (len(expected), len(issues),
                                               json.dumps(issues, indent=1)[:3000]))
    for kind, line, name, fix in expected:
        match = [i for i in issues if i["kind"] == kind and
                 os.path.basename(i["object"]["site"]["file"]) == os.path.basename(source) and
                 i["object"]["site"]["line"] == line]
        check(match, "no %s issue at %s:%d in %s" % (kind, source, line,
                                                     json.dumps(issues, indent=1)[:3000]))
        issue = match[0]
        check(issue["score"] >= issue["threshold"], "issue below its threshold")
        if fix:
            check(issue["fix"] == fix, "expected fix %s, got %s; evidence: %s"
                  % (fix, issue["fix"], json.dumps(issue["evidence"])[:2000]))
        if name:
            check(issue["object"]["kind"] == "global" and issue["object"]["name"] == name,
                  "expected global %s, got %s" % (name, issue["object"]))
        else:
            check(issue["object"]["kind"] == "heap", "expected a heap object")
            check(issue["object"]["stack"], "heap issue without a stack")


def case_remote_read(c):
    exe = c.compile(["remote_read.c"], "remote_read")
    r = c.run(exe)
    check_issues_match_markers(c.profile("remote_read"), "remote_read.c")
    check("remote access" in r.stderr and "remote_read.c:" in r.stderr,
          "text report on stderr lacks the issue:\n" + r.stderr)


def case_private_only(c):
    exe = c.compile(["private_only.c"], "private_only")
    r = c.run(exe)
    p = c.profile("private_only")
    check(p["issues"] == [], "expected no issue: %s" % p["issues"])
    check(p["program"]["threads"] == 4, "expected 4 threads, got %s" % p["program"]["threads"])
    check(p["program"]["total_accesses"] > 3 * (1 << 20), "accesses were not counted")
    check("no NUMA issues" in r.stderr, "text report does not say 'no NUMA issues':\n" + r.stderr)


def case_global_remote(c):
    exe = c.compile(["global_remote.c"], "global_remote")
    c.run(exe, expect_status=3)
    check_issues_match_markers(c.profile("global_remote"), "global_remote.c")


def case_cxx_shared_library(c):
    lib = c.compile(["sum_lib.cpp"], "libsum.so", cxx=True, extra=["-shared", "-fPIC"])
    exe = c.compile(["vector_threads.cpp"], "vector_threads", cxx=True,
                    extra=["-L" + c.work, "-lsum", "-Wl,-rpath," + c.work])
    check(os.path.exists(lib), "shared library not built")
    c.run(exe)
    check_issues_match_markers(c.profile("vector_threads"), "vector_threads.cpp")


def case_abi_mismatch(c):
    exe = c.compile(["abi_mismatch.c"], "abi_mismatch")
    r = c.run(exe, expect_status=7)
    check(r.stdout == "still running\n", "program output changed: %r" % r.stdout)
    lines = [l for l in r.stderr.splitlines() if "ABI" in l]
    check(len(lines) == 1 and lines[0].startswith("numaperf: hook ABI mismatch"),
          "expected one ABI mismatch line:\n" + r.stderr)


def case_bad_environment(c):
    exe = c.compile(["remote_read.c"], "remote_read")
    r = c.run(exe, env={"NUMAPERF_REMOTE_THRESHOLD": "lots", "NUMAPERF_JSON": "none"})
    check("numaperf: NUMAPERF_REMOTE_THRESHOLD='lots' is not a number" in r.stderr,
          "no message about the bad value:\n" + r.stderr)
    check("threshold 1500" in r.stderr, "default threshold not used:\n" + r.stderr)
    check(not [f for f in os.listdir(c.work) if f.endswith(".json")],
          "NUMAPERF_JSON=none still wrote a profile")


def case_unwritable_output(c):
    exe = c.compile(["global_remote.c"], "global_remote")
    r = c.run(exe, env={"NUMAPERF_JSON": "/nonexistent-dir/p.json"}, expect_status=3)
    check("numaperf: cannot write the profile to /nonexistent-dir/p.json" in r.stderr,
          "no clear message for an unwritable path:\n" + r.stderr)


def case_report_to_file(c):
    exe = c.compile(["remote_read.c"], "remote_read")
    out_dir = os.path.join(c.work, "out")
    os.mkdir(out_dir)
    r = c.run(exe, env={"NUMAPERF_REPORT": "report.txt", "NUMAPERF_JSON": out_dir})
    check("remote access" not in r.stderr, "report still went to stderr")
    with open(os.path.join(c.work, "report.txt")) as f:
        check("remote_read.c:" in f.read(), "report file lacks the issue")
    check(len(os.listdir(out_dir)) == 1, "profile not written into the NUMAPERF_JSON directory")


# ---- threads and synchronisation (docs/threads.md) ----------------------------

def thread_issues(p, kind):
    return [i for i in p["issues"] if i["kind"] == kind]


def threads_by_type(p):
    """type -> list of thread records."""
    types = {}
    for t in p["threads"]:
        types.setdefault(t["type"], []).append(t)
    return types


def check_thread_records(p):
    threads = p["threads"]
    check(len(threads) == p["program"]["threads"],
          "%d thread records for %d threads" % (len(threads), p["program"]["threads"]))
    check([t["index"] for t in threads] == list(range(len(threads))), "thread indices not dense")
    check(threads[0]["type"] == "main", "thread 0 is not main: %s" % threads[0])
    for t in threads:
        check(t["waits"] == t["cond_waits"] + t["barrier_waits"] + t["sem_waits"],
              "waits are not the sum of their parts: %s" % t)
    observed = [t["observed_migrations"] for t in threads]
    if any(m is None for m in observed):
        check(any("observed CPU migrations" in n for n in p["notes"]),
              "observed migrations missing without a note")


def case_thread_migration_heavy(c):
    exe = c.compile(["sync_heavy.c"], "sync_heavy")
    r = c.run(exe)
    p = _take_profile(c, "sync_heavy")
    check_thread_records(p)
    issues = thread_issues(p, "thread_migration")
    check(len(issues) == 1, "expected one thread_migration issue: %s" % p["issues"])
    m = issues[0]
    e = m["evidence"]
    check(m["fix"] == "thread_binding", "fix is %s" % m["fix"])
    check(m["score"] >= m["threshold"], "score below threshold")
    check(m["normalized_score"] > 0, "no normalized score")
    # 4 players x 200 barriers: exact; the rest depends on scheduling.
    check(e["barrier_waits"] == 800, "barrier waits %s, expected 800" % e["barrier_waits"])
    check(e["cond_waits"] > 0 and e["possible_migrations"] > 800, "too few events: %s" % e)
    check(e["sem_waits"] <= 4000, "more semaphore waits than sem_wait calls: %s" % e)
    check(0 < e["parallel_phase"] <= 1, "parallel phase %s" % e["parallel_phase"])
    players = threads_by_type(p).get("player", [])
    check(len(players) == 4, "expected 4 player threads: %s" % p["threads"])
    check(all(t["barrier_waits"] == 200 for t in players), "per-thread barrier counts wrong")
    check(sum(t["contentions"] + t["waits"] for t in players) == e["possible_migrations"],
          "per-thread counts do not add up to the issue's total")
    check("thread migration" in r.stderr and " /s (threshold" in r.stderr,
          "text report lacks the migration issue:\n" + r.stderr)
    # Switched off, the same program's synchronisation is not counted: the
    # counts describe the profiled periods (docs/switching.md).
    c.run(exe, env={"NUMAPERF_ACTIVE": "0"})
    off = _take_profile(c, "sync_heavy")
    check(not thread_issues(off, "thread_migration"), "migration issue while switched off")
    check(all(t["contentions"] == 0 and t["waits"] == 0 and t["barrier_waits"] == 0
              for t in off["threads"]),
          "sync events counted while switched off: %s" % off["threads"])


def case_thread_migration_none(c):
    exe = c.compile(["private_only.c"], "private_only")
    c.run(exe)
    p = c.profile("private_only")
    check_thread_records(p)
    check(not thread_issues(p, "thread_migration"), "migration issue without sync")
    check(all(t["contentions"] == 0 and t["waits"] == 0 for t in p["threads"]),
          "sync events counted in a program without sync: %s" % p["threads"])
    im = p["imbalance"]
    check([t["name"] for t in im["types"]] == ["worker"], "types: %s" % im["types"])
    check(im["types"][0]["share"] == 1.0 and im["types"][0]["threads"] == 3, "shares: %s" % im)
    check(not thread_issues(p, "load_imbalance"), "imbalance among identical workers")


def case_observed_migrations(c):
    # The kernel's count of each thread's migrations reaches the report: for
    # a thread that ended, for the main thread still running at the report,
    # and for the main thread of a forked child (a new task, counted afresh).
    exe = c.compile(["affinity_moves.c"], "affinity_moves")
    r = c.run(exe)
    if r.stdout == "skip\n":
        print("skipped: fewer than two CPUs allowed")
        return
    m = re.match(r"done (\d+)\n$", r.stdout)
    check(m, "program output: %r" % r.stdout)
    found = sorted(f for f in os.listdir(c.work)
                   if f.startswith("numaperf-affinity_moves-") and f.endswith(".json"))
    check(len(found) == 2, "expected the parent's and the child's profiles: %s" % found)
    child_file = "numaperf-affinity_moves-%s.json" % m.group(1)
    check(child_file in found, "no profile of the child %s: %s" % (m.group(1), found))
    profiles = {}
    for f in found:
        with open(os.path.join(c.work, f)) as fh:
            profiles["child" if f == child_file else "parent"] = json.load(fh)
        os.remove(os.path.join(c.work, f))
    parent, child = [profiles["parent"]], [profiles["child"]]
    for p in profiles.values():
        check_thread_records(p)
    # 50 moves alternate between two CPUs; the first is none when the thread
    # already runs on the first CPU.
    moves = 49
    main, worker = parent[0]["threads"]
    check(worker["observed_migrations"] is not None and worker["observed_migrations"] >= moves,
          "worker: %s migrations observed for %d moves" % (worker["observed_migrations"], moves))
    check(main["observed_migrations"] is not None and main["observed_migrations"] >= moves,
          "main: %s migrations observed for %d moves" % (main["observed_migrations"], moves))
    child_main = child[0]["threads"][0]
    # The child moves 50 times; what its parent did (100 moves) must not be
    # carried over (one more: its first placement).
    check(child_main["observed_migrations"] is not None and
          moves <= child_main["observed_migrations"] <= 50 + 1,
          "child: %s migrations observed for %d moves" % (child_main["observed_migrations"], moves))


def pipeline_profile(c, a_work, b_work, env=None):
    name = "pipeline_%d_%d" % (a_work, b_work)
    exe = c.compile(["pipeline.c"], name, extra=["-DA_WORK=%d" % a_work, "-DB_WORK=%d" % b_work])
    r = c.run(exe, env=env)
    check(r.stdout == "done\n", "program output: %r" % r.stdout)
    p = c.profile(name)
    check_thread_records(p)
    im = p["imbalance"]
    shares = {t["name"]: t["share"] for t in im["types"]}
    check(sorted(shares) == ["stage_a", "stage_b"], "thread types: %s" % im["types"])
    check(all(t["threads"] == 2 for t in im["types"]), "threads per type: %s" % im["types"])
    check(im["main_thread_accesses"] < sum(t["accesses"] for t in im["types"]) / 100,
          "main thread counted as a worker: %s" % im)
    return p, im, shares


def case_load_imbalance_pipeline(c):
    p, im, shares = pipeline_profile(c, 9, 1, env={"NUMAPERF_SUGGEST_THREADS": "20"})
    check(abs(shares["stage_a"] - 0.9) < 0.02 and abs(shares["stage_b"] - 0.1) < 0.02,
          "shares %s, expected about 0.9/0.1" % shares)
    check(8 < im["ratio"] < 10, "ratio %s" % im["ratio"])
    check(im["suggested"] == {"stage_a": 3, "stage_b": 1} and im["suggested_total"] == 4,
          "suggestion for 4 threads: %s" % im)
    check(im["requested_total"] == 20 and
          im["suggested_for_requested"] == {"stage_a": 18, "stage_b": 2},
          "suggestion for NUMAPERF_SUGGEST_THREADS=20: %s" % im)
    issues = thread_issues(p, "load_imbalance")
    check(len(issues) == 1, "expected one load_imbalance issue: %s" % p["issues"])
    i = issues[0]
    check(i["fix"] == "adjust_threads" and i["score"] > i["threshold"], "issue: %s" % i)
    ev = i["evidence"]
    check(ev["types"]["stage_a"]["suggested_threads"] == 3 and
          ev["types"]["stage_b"]["suggested_threads"] == 1, "evidence: %s" % ev)
    check(ev["suggested_for_requested"] == {"stage_a": 18, "stage_b": 2}, "evidence: %s" % ev)


def case_balanced_pipeline(c):
    p, im, shares = pipeline_profile(c, 3, 3)
    check(abs(shares["stage_a"] - 0.5) < 0.05, "shares %s, expected about 0.5/0.5" % shares)
    check(im["ratio"] < 1.2, "ratio %s" % im["ratio"])
    check(im["suggested"] == {"stage_a": 2, "stage_b": 2}, "suggestion: %s" % im)
    check("requested_total" not in im, "requested total without NUMAPERF_SUGGEST_THREADS")
    check(not thread_issues(p, "load_imbalance"), "balanced pipeline reported: %s" % p["issues"])


def case_uneven_workers(c):
    exe = c.compile(["uneven_workers.c"], "uneven_workers")
    c.run(exe)
    p = c.profile("uneven_workers")
    check_thread_records(p)
    issues = thread_issues(p, "load_imbalance")
    check(len(issues) == 1, "expected one load_imbalance issue: %s" % p["issues"])
    i = issues[0]
    e = i["evidence"]
    check(e["scope"] == "threads of one type" and e["type"] == "worker" and
          i["fix"] == "balance_work", "issue: %s" % i)
    workers = threads_by_type(p)["worker"]
    heavy = max(workers, key=lambda t: t["accesses"])
    check(e["busiest_thread"]["index"] == heavy["index"], "busiest thread: %s" % e)
    check(7 < i["score"] < 9, "ratio %s, expected about 8" % i["score"])
    check(p["imbalance"]["suggested"] == {"worker": 3}, "suggestion: %s" % p["imbalance"])


def case_worker_pools_in_phases(c):
    # Two balanced pools of one routine, one after the other: the light
    # pool's threads ran when the heavy pool's had ended, so they are not
    # compared with them.
    exe = c.compile(["uneven_workers.c"], "uneven_workers")
    c.run(exe, args=["phases"])
    p = c.profile("uneven_workers")
    workers = threads_by_type(p)["worker"]
    check(len(workers) == 6, "expected 6 workers: %s" % p["threads"])
    counts = sorted(t["accesses"] for t in workers)
    check(counts[-1] > 6 * counts[0], "pools should differ about 8-fold: %s" % counts)
    check(not thread_issues(p, "load_imbalance"),
          "pools of different phases compared: %s" % thread_issues(p, "load_imbalance"))


def check_openmp_profile(p, stdout):
    check(stdout == "threads=4 total=4000\n", "program output: %r" % stdout)
    check_thread_records(p)
    types = threads_by_type(p)
    workers = types.get("OpenMP worker", [])
    check(len(workers) == 3, "expected 3 OpenMP workers: %s" % p["threads"])
    team = workers + types["main"]
    # 50 explicit barriers, plus the end of the worksharing loop.
    counts = {t["barrier_waits"] for t in team}
    check(len(counts) == 1 and counts.pop() >= 50, "barrier waits per thread: %s" % team)
    check(not thread_issues(p, "load_imbalance"), "imbalance in a balanced team")


def case_openmp_libomp(c):
    exe = c.compile(["openmp_barriers.c"], "openmp_libomp", extra=["-fopenmp"])
    r = c.run(exe)
    p = c.profile("openmp_libomp")
    check_openmp_profile(p, r.stdout)
    check(all(t["accesses"] > 0 for t in p["threads"]), "accesses not counted")


def case_openmp_libgomp(c):
    # clang emits libomp calls only; libgomp programs come from gcc, built
    # without the pass and linked with the runtime: sync is still counted.
    gcc = shutil.which("gcc")
    if not gcc:
        print("SKIP: gcc not found")
        return
    libdir = os.path.join(os.path.dirname(c.bin), "lib")
    exe = os.path.join(c.work, "openmp_libgomp")
    cmd = [gcc, "-O2", "-fopenmp", os.path.join(PROGRAMS, "openmp_barriers.c"), "-o", exe,
           "-L" + libdir, "-lnumaperf", "-Wl,-rpath," + libdir]
    b = subprocess.run(cmd, capture_output=True, text=True)
    check(b.returncode == 0, "gcc failed: %s" % b.stderr)
    r = c.run(exe)
    check_openmp_profile(c.profile("openmp_libgomp"), r.stdout)


def lifecycle_case(main_exits):
    def case(c):
        extra = ["-DMAIN_PTHREAD_EXIT"] if main_exits else []
        exe = c.compile(["thread_lifecycle.c"], "thread_lifecycle", extra=extra)
        r = c.run(exe)
        check(r.stdout == "done\n", "program output: %r" % r.stdout)
        p = c.profile("thread_lifecycle")
        check_thread_records(p)
        check(p["program"]["threads"] == 1 + 2000 + 8 + 8, "threads: %d" % p["program"]["threads"])
        types = threads_by_type(p)
        for name, n, per_thread in (("short_lived", 2000, 2), ("detached", 8, 5),
                                    ("exiting", 8, 7)):
            ts = types.get(name, [])
            check(len(ts) == n, "%d %s threads, expected %d" % (len(ts), name, n))
            check(all(t["barrier_waits"] == per_thread for t in ts),
                  "%s: barrier waits lost" % name)
            check(all(t["accesses"] > 0 for t in ts), "%s: accesses lost" % name)
        check(not thread_issues(p, "load_imbalance"), "imbalance: %s" % p["issues"])
        check(not any("still running" in n for n in p["notes"]), "threads left running: %s"
              % p["notes"])
    return case


case_thread_lifecycle = lifecycle_case(False)
case_thread_lifecycle_main_exit = lifecycle_case(True)


# Per-millisecond scores fall when the machine is busy (CI runs tests in
# parallel on two cores); the ground-truth cases test what is found and the
# advice, so they use thresholds a loaded machine still clears. The clean
# program must stay clean even so.
GROUND_TRUTH_ENV = {"NUMAPERF_REMOTE_THRESHOLD": "100",
                    "NUMAPERF_FALSE_SHARING_THRESHOLD": "1",
                    "NUMAPERF_TRUE_SHARING_THRESHOLD": "1"}


def ground_truth(source, status=0, check_output=None, env=None):
    """A case that builds programs/SOURCE and checks its issues against its
    markers. A run that finds fewer issues than planted is repeated (twice
    at most, after a pause): sharing is only seen when the threads really
    interleave, and on a 2-CPU machine running other tests beside this one
    a run can go by with the workers taking turns. A wrong or extra issue
    fails at once."""
    def case(c):
        name = os.path.splitext(source)[0]
        exe = c.compile([source], name)
        for attempt in range(3):
            for f in os.listdir(c.work):
                if f.startswith("numaperf-%s-" % name) and f.endswith(".json"):
                    os.unlink(os.path.join(c.work, f))
            r = c.run(exe, env=dict(GROUND_TRUTH_ENV, **(env or {})), expect_status=status)
            if check_output:
                check_output(r)
            profile = c.profile(name)
            if attempt < 2 and len(profile["issues"]) < len(expected_sites(source)):
                print("run %d found %d of %d planted issues; repeated" % (
                    attempt + 1, len(profile["issues"]), len(expected_sites(source))))
                time.sleep(1)
                continue
            check_issues_match_markers(profile, source)
            return
    return case


def _reused(r):
    check("reused" in r.stdout, "the allocator did not reuse the freed block's addresses, "
          "so this run cannot show whether first touch is inherited")


# ---- bandwidth signature from the profile (docs/bwmodel.md) -------------------

SIGNATURE_CLASSES = ("static", "local", "per_thread", "interleaved")
SIGNATURE_TOLERANCE = 0.05


def check_signature(profile, source):
    """The program's signature against the SIGNATURE marker; returns it."""
    want = expected_signature(source)
    sig = profile.get("bandwidth_signature")
    check(sig, "no bandwidth_signature in the profile")
    prog = sig["program"]
    weights = {}
    for kind in ("read", "write"):
        got = prog[kind]
        check(got["accesses"] > 0, "no %s accesses classified: %s" % (kind, prog))
        for cls in SIGNATURE_CLASSES:
            expected = want[kind].get(cls, 0.0)
            check(abs(got[cls] - expected) <= SIGNATURE_TOLERANCE,
                  "%s %s share %.4f, constructed %.2f: %s" % (kind, cls, got[cls], expected,
                                                              json.dumps(sig)[:3000]))
            weights[cls] = weights.get(cls, 0.0) + got[cls] * got["accesses"]
    dominant = max(weights, key=weights.get)
    check(dominant == want["dominant"], "dominant class %s, constructed %s" % (dominant, want["dominant"]))
    if want["static_thread"] is not None:
        check(prog["read"]["static_thread"] == want["static_thread"],
              "static thread %s, expected %s" % (prog["read"]["static_thread"], want["static_thread"]))
    print("%s: read %s write %s" % (source, {c: round(prog["read"][c], 4) for c in SIGNATURE_CLASSES},
                                    {c: round(prog["write"][c], 4) for c in SIGNATURE_CLASSES}))
    return sig


def signature_case(source, extra=(), check_run=None):
    def case(c):
        name = os.path.splitext(source)[0]
        exe = c.compile([source], name, extra=list(extra))
        r = c.run(exe, env=GROUND_TRUTH_ENV)  # issues (for the what-if) even on a loaded machine
        if check_run:
            check_run(r)
        p = c.profile(name)
        sig = check_signature(p, source)
        check("bandwidth signature" in r.stderr, "text report lacks the signature:\n" + r.stderr)
        return p, sig
    return case


def case_signature_inherited_policy(c):
    """An interleave policy set before the program starts (numactl
    --interleave) makes every page interleaved: the thread-local program's
    signature turns all interleaved."""
    numactl = shutil.which("numactl")
    if not numactl:
        print("SKIP: numactl not found")
        return
    exe = c.compile(["signature_local.c"], "signature_local")
    env = dict(os.environ, NUMAPERF_REPORT="none")
    env.pop("NUMAPERF_JSON", None)
    r = subprocess.run([numactl, "--interleave=all", exe], cwd=c.work, capture_output=True, text=True,
                       env=env, timeout=120)
    check(r.returncode == 0, "exit status %d: %s" % (r.returncode, r.stderr))
    prog = c.profile("signature_local")["bandwidth_signature"]["program"]
    for kind in ("read", "write"):
        check(prog[kind]["interleaved"] > 0.99, "%s not interleaved: %s" % (kind, prog))


def _interleaved_sum(r):
    n = 1 << 18
    check(r.stdout == "sum %d\n" % (3 * n * (n - 1)), "program output changed: %r" % r.stdout)


case_signature_local = signature_case("signature_local.c")
_signature_static = signature_case("signature_static.c")


def case_signature_static(c):
    """Also the what-if on the real profile: 5 threads on 3,2 put threads 3
    and 4 on node 1, whose table reads cross; duplicating the table (the
    report's fix) makes them local."""
    _signature_static(c)
    found = [f for f in os.listdir(c.work) if f.startswith("numaperf-signature_static-")]
    r = subprocess.run([os.path.join(c.bin, "numaperf"), "placement", os.path.join(c.work, found[0]),
                        "--topology", "pack:2 [numa] core:4 pu:1", "--threads-per-node", "3,2", "--json"],
                       capture_output=True, text=True)
    check(r.returncode == 0, "numaperf placement failed: %s" % r.stderr)
    scenarios = {s["name"].split(" ")[0] + (" " + s["fix"] if s["kind"] == "fix" else ""): s
                 for s in json.loads(r.stdout)["scenarios"]}
    given = scenarios["given"]
    check(abs(given["remote_share"] - 0.4 * given["read_share"]) < 1e-6,
          "remote share %s for read share %s" % (given["remote_share"], given["read_share"]))
    fix = scenarios.get("fix duplicate")
    check(fix is not None and fix["remote_share"] < 1e-9, "no duplicate fix removing remote traffic: %s"
          % list(scenarios))
case_signature_per_thread = signature_case("signature_per_thread.c")
case_signature_mixed = signature_case("signature_mixed.c")
_signature_interleaved = signature_case("signature_interleaved.c", extra=["-lnuma"],
                                        check_run=_interleaved_sum)


def case_signature_interleaved(c):
    p, sig = _signature_interleaved(c)
    # All three arrays: numa_alloc_interleaved and numa_interleave_memory
    # (libnuma's own mbind calls) and numa_set_interleave_mask (set_mempolicy)
    # were seen.
    arrays = [o for o in sig["objects"] if o["object"]["size"] == (1 << 18) * 8]
    check(len(arrays) == 3, "expected the three interleaved arrays: %s" % json.dumps(sig)[:3000])
    check(all(o["read"]["interleaved"] > 0.99 for o in arrays), "an array is not interleaved: %s" % arrays)


case_gt_block_interleave = ground_truth("remote_read.c")
case_gt_page_interleave = ground_truth("gt_page_interleave.c")
case_gt_duplicate = ground_truth("gt_duplicate.c")
case_gt_false_sharing_heap = ground_truth("gt_false_sharing_heap.c")
case_gt_false_sharing_global = ground_truth("gt_false_sharing_global.c")
case_gt_false_sharing_after_scalars = ground_truth("gt_false_sharing_after_scalars.c")
case_gt_true_sharing = ground_truth("gt_true_sharing.c")
case_gt_clean = ground_truth("gt_clean.c")
case_gt_reuse = ground_truth("gt_reuse.c", check_output=_reused)
case_gt_mmap = ground_truth("gt_mmap.c")
case_gt_reuse_mapped = ground_truth("gt_reuse_mapped.c", check_output=_reused)
# Blocks freed with profiling off leave dead map entries under a later block.
case_gt_reuse_after_off = ground_truth("gt_reuse_after_off.c", check_output=_reused,
                                       env={"NUMAPERF_ACTIVE": "0"})


def _issues_by_site(p):
    return {(i["kind"], i["object"]["site"]["line"]): i for i in p["issues"]}


def case_sampled_large(c):
    """Page sampling (docs/sampling.md): the same program profiled sampled
    (the default) and exact finds the same issues on its two large arrays,
    with the same remote reads of the array every worker only reads; the
    sampled profile says what it left out, the exact one does not."""
    source = "sampled_large.c"
    exe = c.compile([source], "sampled_large")
    want = {(kind, line) for kind, line, _, _ in expected_sites(source)}
    runs = {}
    for rate in ("1", "8"):
        for attempt in range(3):  # sharing needs the workers to interleave
            env = dict(GROUND_TRUTH_ENV, NUMAPERF_SAMPLE_PAGES=rate,
                       NUMAPERF_REPORT="sampled-%s.txt" % rate)
            r = c.run(exe, env=env)
            p = _take_profile(c, "sampled_large")
            if want <= set(_issues_by_site(p)) or attempt == 2:
                break
            time.sleep(1)
        with open(os.path.join(c.work, "sampled-%s.txt" % rate)) as f:
            runs[rate] = (r.stdout, p, f.read())
    (out_exact, exact, text_exact), (out_sampled, sampled, text_sampled) = runs["1"], runs["8"]
    check(out_exact == out_sampled, "output differs: %r vs %r" % (out_exact, out_sampled))
    got_exact, got_sampled = _issues_by_site(exact), _issues_by_site(sampled)
    check(want <= set(got_exact), "exact run misses %s: %s" % (want - set(got_exact), sorted(got_exact)))
    # The falsely shared array's lines change hands at about the rate that
    # decides between coherence and placement traffic (docs/scores.md), so
    # whether its remote accesses make an issue of their own varies by run.
    borderline = {("remote_access", _line_of(source, "EXPECT: false_sharing"))}
    check(set(got_sampled) - borderline == set(got_exact) - borderline,
          "sampled run found %s, exact %s" % (sorted(got_sampled), sorted(got_exact)))
    check(exact["thresholds"]["page_sample_rate"] == 1 and
          sampled["thresholds"]["page_sample_rate"] == 8, "page_sample_rate not in the thresholds")
    for key, issue in got_exact.items():
        check("pages_sampled_away" not in issue["evidence"], "exact run sampled %s" % (key,))
    nodes = _line_of(source, "EXPECT: remote_access", 2)
    for key, issue in got_sampled.items():
        if key in borderline:
            continue
        away = issue["evidence"].get("pages_sampled_away", 0)
        # The arrays: 2049 pages each, one in eight modelled. The nodes:
        # 512 pages, the first few shared before the site had 1024 objects.
        pages = 512 if key[1] == nodes else 2049
        check(pages // 2 < away < pages, "%s: %s of %s pages sampled away" % (key, away, pages))
    check("sampled:" in text_sampled and "pages_sampled_away" in text_sampled,
          "the sampled report does not say what was sampled")
    check("sampled:" not in text_exact, "the exact report claims sampling")
    # Every remote access is attributed (the note appears above 1%): the
    # blocks of a line take all of its count between them (docs/scores.md,
    # "Attribution rules"), and the program's remote total holds the
    # sampled objects' estimates, not the threads' raw counts.
    for rate, (_, p, text) in runs.items():
        check("fell outside" not in text, "rate %s: remote accesses left unattributed:\n%s"
              % (rate, "\n".join(p["notes"])))
    for line, what in ((_line_of(source, "EXPECT: remote_access"), "the read-only array"),
                       (nodes, "the list's nodes")):
        a = got_exact[("remote_access", line)]["evidence"]["remote_accesses"]
        b = got_sampled[("remote_access", line)]["evidence"]["remote_accesses"]
        check(abs(a - b) <= 0.02 * a, "remote reads of %s: exact %d, sampled %d" % (what, a, b))
    tally = _line_of(source, "EXPECT: false_sharing")
    a = got_exact[("false_sharing", tally)]["evidence"]["invalidations_total"]
    b = got_sampled[("false_sharing", tally)]["evidence"]["invalidations_total"]
    check(a / 2 < b < 2 * a, "invalidations of the shared array: exact %d, sampled %d" % (a, b))


def _invariant_clock():
    """Whether the line windows' clock is there (core/line_windows.cpp): an
    invariant time-stamp counter on x86 (Linux's nonstop_tsc flag), the
    generic timer on ARM."""
    machine = os.uname().machine
    if machine in ("x86_64", "i686", "i386"):
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and "nonstop_tsc" in line.split() for line in f)
    return machine == "aarch64"


def case_hot_line_windows(c):
    """Hot-line window sampling (docs/sampling.md, "Hot lines"), on by
    default: the same program profiled exactly and sampled finds the same
    issues, the sampled report says which lines it modelled in windows, and
    its estimates of the invalidations stay close to the exact counts (a
    short program once got five times too many: weights from the accesses
    skipped before a thread's first modelled one)."""
    source = "hot_lines.c"
    exe = c.compile([source], "hot_lines")
    want = {(kind, line) for kind, line, _, _ in expected_sites(source)}
    clock = _invariant_clock()

    def profile_both():
        runs = {}
        for rate in ("1", None):  # None: the default
            for attempt in range(3):  # sharing needs the workers to interleave
                env = {"NUMAPERF_REPORT": "windows-%s.txt" % rate}
                if rate:
                    env["NUMAPERF_SAMPLE_LINE_WINDOWS"] = rate
                r = c.run(exe, env=env)
                p = _take_profile(c, "hot_lines")
                sampled = sum(i["evidence"].get("lines_sampled_in_windows", 0) for i in p["issues"])
                if (want <= set(_issues_by_site(p)) and (rate or not clock or sampled)) or attempt == 2:
                    break
                time.sleep(1)
            with open(os.path.join(c.work, "windows-%s.txt" % rate)) as f:
                runs[rate] = (r.stdout, p, f.read())
        return runs

    def estimate_misses(exact, sampled):
        """The issues whose sampled invalidations are not within a factor 2
        of the exact run's, as messages."""
        got_exact, got_sampled = _issues_by_site(exact), _issues_by_site(sampled)
        misses = []
        for key in want:
            if key not in got_exact or key not in got_sampled:
                continue  # reported below
            a = got_exact[key]["evidence"]["invalidations_total"]
            b = got_sampled[key]["evidence"]["invalidations_total"]
            if not a / 2 < b < 2 * a:
                misses.append("%s: invalidations exact %d, sampled %d" % (key, a, b))
        return misses

    # The program runs about 0.1 s: a thread the host deschedules for a few
    # milliseconds changes what the open windows see (both runs vary by 2x
    # on this kind of host). A pair is profiled again, up to three times in
    # all, only when the estimates miss; an estimator that is off misses in
    # every pair.
    for pair in range(3):
        runs = profile_both()
        misses = estimate_misses(runs["1"][1], runs[None][1]) if clock else []
        if not misses:
            break
        time.sleep(1)
    (out_exact, exact, text_exact), (out_sampled, sampled, text_sampled) = runs["1"], runs[None]
    check(out_exact == out_sampled, "output differs: %r vs %r" % (out_exact, out_sampled))
    got_exact, got_sampled = _issues_by_site(exact), _issues_by_site(sampled)
    check(set(got_exact) == want, "exact run found %s, expected %s" % (sorted(got_exact), sorted(want)))
    check(set(got_sampled) == want, "sampled run found %s, expected %s" % (sorted(got_sampled), sorted(want)))
    check(exact["thresholds"]["line_window_rate"] == 1, "exact run: line_window_rate not 1")
    check(sampled["thresholds"]["line_window_rate"] == (8 if clock else 1),
          "default line_window_rate %s" % sampled["thresholds"]["line_window_rate"])
    for key, issue in got_exact.items():
        check("lines_sampled_in_windows" not in issue["evidence"], "exact run sampled %s" % (key,))
    check("sampled:" not in text_exact, "the exact report claims sampling")
    if not clock:
        return
    for key, issue in got_sampled.items():
        lines = issue["evidence"].get("lines_sampled_in_windows", 0)
        check(lines >= 1, "%s: no line modelled in windows" % (key,))
    check("modelled in 1 time window" in text_sampled, "the sampled report does not say what was sampled")
    check(not misses, "; ".join(misses) + " (in each of 3 pairs; the last shown)")


def case_fork_child(c):
    exe = c.compile(["fork_child.c"], "fork_child")
    c.run(exe, env={"NUMAPERF_REPORT": "none"})  # a deadlock would hit the timeout
    profiles = sorted(f for f in os.listdir(c.work) if f.startswith("numaperf-fork_child-"))
    # 20 children end with _exit, one with exit: each writes its own profile.
    check(len(profiles) == 22, "expected the parent's and 21 children's profiles, got %s"
          % profiles)
    pids = set()
    for name in profiles:
        with open(os.path.join(c.work, name)) as f:
            p = json.load(f)
        pids.add(p["program"]["pid"])
        check(name == "numaperf-fork_child-%d.json" % p["program"]["pid"],
              "profile %s names another pid than it holds" % name)
    check(len(pids) == 22, "parent and child profiles share a pid")


def case_memory_limit(c):
    """NUMAPERF_MEMORY_LIMIT: beyond it page detail is dropped, counted and
    reported; the program runs on unchanged."""
    exe = c.compile(["remote_read.c"], "remote_read")
    c.run(exe, env={"NUMAPERF_JSON": "free.json"})
    with open(os.path.join(c.work, "free.json")) as f:
        free = json.load(f)
    check(free["program"]["detail_dropped"] == 0 and free["program"]["memory_limit_mib"] == 0,
          "detail dropped without a limit: %s" % free["program"])
    check(free["issues"], "no issue without a limit")
    r = c.run(exe, env={"NUMAPERF_JSON": "capped.json", "NUMAPERF_MEMORY_LIMIT": "1"})
    with open(os.path.join(c.work, "capped.json")) as f:
        capped = json.load(f)
    check(capped["program"]["memory_limit_mib"] == 1, "limit not recorded: %s" % capped["program"])
    check(capped["program"]["detail_dropped"] > 0, "nothing dropped under a 1 MiB limit")
    check(any("NUMAPERF_MEMORY_LIMIT=1 MiB" in n for n in capped["notes"]),
          "no note about the limit: %s" % capped["notes"])
    check("runtime memory limit reached" in r.stderr, "text report lacks the note:\n" + r.stderr)
    bad = c.run(exe, env={"NUMAPERF_JSON": "none", "NUMAPERF_MEMORY_LIMIT": "1G"})
    check("numaperf: NUMAPERF_MEMORY_LIMIT='1G' is not a whole number" in bad.stderr,
          "no message for a bad limit:\n" + bad.stderr)


# ---- process life: every way a process ends (programs/process_end.c) ----------

# mode -> exit status (negative: killed by that signal), as without numaperf.
PROCESS_END_MODES = {
    "exit_thread": 9, "pthread_exit_main": 0, "abort": -6, "_exit": 5, "_Exit": 6,
    "quick_exit": 7, "segv": -11, "segv_handler": 42, "sigterm_thread": -15,
    "sigint_handler": -2, "sigterm_ignored": 0, "stderr_reused": 0, "spawn": 0,
}


def profiles_of(c, name):
    return sorted(f for f in os.listdir(c.work)
                  if f.startswith("numaperf-%s-" % name) and f.endswith(".json"))


def check_complete_profiles(c, name, count):
    found = profiles_of(c, name)
    check(len(found) == count, "expected %d profile(s), found %s" % (count, found))
    pids = set()
    for f in found:
        with open(os.path.join(c.work, f)) as fh:
            p = json.load(fh)  # complete: a truncated file would not parse
        check(f == "numaperf-%s-%d.json" % (name, p["program"]["pid"]),
              "profile %s names another pid than it holds" % f)
        check(p["program"]["total_accesses"] > 0, "%s: no accesses counted" % f)
        pids.add(p["program"]["pid"])
    check(len(pids) == count, "profiles share a pid: %s" % found)
    temps = [f for f in os.listdir(c.work) if ".tmp." in f]
    check(not temps, "temporary files left behind: %s" % temps)


def process_end_case(mode):
    def case(c):
        status = PROCESS_END_MODES[mode]
        native = c.compile_native(["process_end.c"], "native_end")
        exe = c.compile(["process_end.c"], "process_end")
        n = c.run(native, args=[mode], expect_status=status)
        for f in os.listdir(c.work):  # the native run's own files
            if f == "own.log":
                os.remove(os.path.join(c.work, f))
        r = c.run(exe, args=[mode], expect_status=status)
        check(r.stdout == n.stdout, "output differs from the native run:\n%r\n%r"
              % (r.stdout, n.stdout))
        check(r.stderr.count("numaperf:") == 0, "runtime messages:\n" + r.stderr)
        check_complete_profiles(c, "process_end", 5 if mode == "spawn" else 1)
        if mode == "stderr_reused":
            with open(os.path.join(c.work, "own.log")) as f:
                check(f.read() == "program data\n", "the program's own file was written to")
            pid = json.load(open(os.path.join(c.work, profiles_of(c, "process_end")[0])))[
                "program"]["pid"]
            with open(os.path.join(c.work, "numaperf-process_end-%d.txt" % pid)) as f:
                check("numaperf" in f.read(), "text report not in its fallback file")
            os.remove(os.path.join(c.work, "own.log"))
            c.run(exe, args=[mode], env={"NUMAPERF_REPORT": "configured.txt",
                                         "NUMAPERF_JSON": "none"})
            with open(os.path.join(c.work, "own.log")) as f:
                check(f.read() == "program data\n", "the program's own file was written to")
            with open(os.path.join(c.work, "configured.txt")) as f:
                check("numaperf" in f.read(), "NUMAPERF_REPORT file lacks the report")
        else:
            check("numaperf NUMA report" in r.stderr, "no text report on stderr:\n" + r.stderr)
    return case


for _mode in PROCESS_END_MODES:
    globals()["case_process_end_" + _mode.strip("_")] = process_end_case(_mode)


# ---- hostile programs (programs/hostile.c, exceptions.cpp) ---------------------

# mode -> extra check of the profile (None: status, output and one complete
# profile are the test).
def _threads_at_least(n):
    def check_profile(p):
        check(p["program"]["threads"] >= n, "threads: %d, expected %d" % (p["program"]["threads"], n))
    return check_profile


HOSTILE_MODES = {
    "ctor_alloc": None, "live_threads": _threads_at_least(1001),
    "thread_churn": _threads_at_least(100001), "realloc": None, "mappings": None,
    "huge_virtual": None, "custom_allocator": None, "longjmp": None, "tls": None,
    "sigaltstack": None, "dlopen": None, "coroutines": None,
}


def compare_with_native(c, sources, name, args=(), cxx=False, extra=(), native_args=None):
    """Builds natively and with numaperf, runs both (the native build with
    native_args if given), compares status and stdout; returns the numaperf
    run's one profile."""
    native_args = args if native_args is None else native_args
    native = c.compile_native(sources, name + "_native",
                              extra=(["-lstdc++"] if cxx else []) + list(extra))
    exe = c.compile(sources, name, cxx=cxx, extra=extra)
    n = subprocess.run([native, *native_args], cwd=c.work, capture_output=True, text=True,
                       timeout=300, preexec_fn=_no_core_files)
    r = c.run(exe, args=args, expect_status=n.returncode)
    check(r.stdout == n.stdout, "output differs from the native run:\n%r\n%r" % (r.stdout, n.stdout))
    check("numaperf:" not in r.stderr, "runtime messages:\n" + r.stderr)
    check_complete_profiles(c, name, 1)
    with open(os.path.join(c.work, profiles_of(c, name)[0])) as f:
        return json.load(f)


def hostile_case(mode):
    def case(c):
        extra = ["-ldl"]
        args, native_args = [mode], None
        if mode == "dlopen":
            lib = c.compile(["plugin.cpp"], "libplugin.so", cxx=True, extra=["-shared", "-fPIC"])
            native_lib = c.compile_native(["plugin.cpp"], "libplugin_native.so",
                                          extra=["-shared", "-fPIC"])
            args, native_args = [mode, lib], [mode, native_lib]
        p = compare_with_native(c, ["hostile.c"], "hostile", args=args, extra=extra,
                                native_args=native_args)
        if HOSTILE_MODES[mode]:
            HOSTILE_MODES[mode](p)
    return case


for _mode in HOSTILE_MODES:
    globals()["case_hostile_" + _mode] = hostile_case(_mode)


def _peak_rss_kib(c, exe, args, json_name):
    """Runs exe with numaperf's JSON to json_name; returns (stdout, peak RSS
    in KiB of that process alone, from wait4)."""
    env = dict(os.environ, NUMAPERF_JSON=json_name, NUMAPERF_REPORT="none")
    out_path = os.path.join(c.work, json_name + ".out")
    with open(out_path, "w") as out, open(out_path + ".err", "w") as err:
        p = subprocess.Popen([exe, *args], cwd=c.work, env=env, stdout=out, stderr=err,
                             preexec_fn=_no_core_files)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    check(p.returncode == 0, "status %d\n%s" % (p.returncode, open(out_path + ".err").read()))
    with open(out_path) as f:
        return f.read(), usage.ru_maxrss


def case_hostile_thread_churn_memory(c):
    """100 000 short-lived threads run in bounded memory: the runtime's peak
    RSS is not much above a 1000-thread run (a record per thread would add
    ~2 KiB each), and the report counts every thread, saying how many
    were folded into per-type totals."""
    exe = c.compile(["hostile.c"], "hostile", extra=["-ldl"])
    _, small = _peak_rss_kib(c, exe, ["thread_churn", "1000"], "small.json")
    out, big = _peak_rss_kib(c, exe, ["thread_churn", "100000"], "big.json")
    check(out == "churned threads: 100000\n", "output: %r" % out)
    check(big - small < 48 * 1024,
          "peak RSS %d KiB for 100000 threads vs %d KiB for 1000: records grow with threads"
          % (big, small))
    with open(os.path.join(c.work, "big.json")) as f:
        p = json.load(f)
    check(p["program"]["threads"] == 100001, "threads: %d" % p["program"]["threads"])
    check(len(p["threads"]) <= 4096 + 32, "%d thread records kept" % len(p["threads"]))
    folded = [n for n in p["notes"] if "were folded" in n]
    check(folded and int(folded[0].split()[0]) == 100001 - len(p["threads"]),
          "no or wrong note on folded threads: %s" % p["notes"])
    types = {t["name"]: t["threads"] for t in p["imbalance"]["types"]}
    check(types.get("touch_slot") == 100000, "thread types: %s" % types)


def case_hostile_exceptions(c):
    compare_with_native(c, ["exceptions.cpp"], "exceptions", cxx=True)


def _write_calibration(path, host, extra):
    summary = {"local_latency_ns": 80.0,
               "remote_latency_ns": None if extra is None else 80.0 + extra,
               "remote_extra_ns": extra}
    with open(path, "w") as f:
        json.dump({"format": "numaperf-calibration", "version": 1, "host": host,
                   "summary": summary}, f)


def case_calibration(c):
    """Remote accesses turned into time on a calibrated host, at exit
    (NUMAPERF_CALIBRATION) and when re-rendering (numaperf report --calibration)."""
    exe = c.compile(["remote_read.c"], "remote_read")
    two = os.path.join(c.work, "two-nodes.json")
    one = os.path.join(c.work, "one-node.json")
    _write_calibration(two, "bigbox", 100.0)
    _write_calibration(one, "laptop", None)
    r = c.run(exe, env={"NUMAPERF_CALIBRATION": two, "NUMAPERF_JSON": "at-exit.json"})
    with open(os.path.join(c.work, "at-exit.json")) as f:
        p = json.load(f)
    issue = p["issues"][0]
    remote = issue["evidence"]["remote_accesses"]
    check(abs(issue["evidence"]["estimated_extra_ms"] - remote * 100.0 / 1e6) < 1e-6,
          "estimate is not remote accesses x 100 ns: %s" % issue["evidence"])
    check("bigbox" in r.stderr and "estimated_extra_ms" in r.stderr,
          "text report does not show the estimate:\n" + r.stderr)
    # Re-rendering for another host: a one-node host gives no estimate, and says so.
    numaperf = os.path.join(c.bin, "numaperf")
    plain = os.path.join(c.work, "plain.json")
    c.run(exe, env={"NUMAPERF_JSON": plain})
    out = subprocess.run([numaperf, "report", "--calibration", one, "--format", "json", plain],
                         capture_output=True, text=True)
    check(out.returncode == 0, "numaperf report failed: " + out.stderr)
    again = json.loads(out.stdout)
    check("estimated_extra_ms" not in again["issues"][0]["evidence"] and
          any("laptop" in n for n in again["notes"]), "one-node host: %s" % again["notes"])
    out = subprocess.run([numaperf, "report", "--calibration", two, plain],
                         capture_output=True, text=True)
    check(out.returncode == 0 and "estimated_extra_ms" in out.stdout, "two-node host: " + out.stdout)
    bad = subprocess.run([numaperf, "report", "--calibration", plain, plain],
                         capture_output=True, text=True)
    check(bad.returncode == 2 and "not a numaperf calibration file" in bad.stderr,
          "a profile passed as calibration: %d %s" % (bad.returncode, bad.stderr))
    r = c.run(exe, env={"NUMAPERF_CALIBRATION": "/nonexistent.json", "NUMAPERF_JSON": "none"})
    check("numaperf: NUMAPERF_CALIBRATION: cannot read calibration file" in r.stderr,
          "no message for a missing calibration file:\n" + r.stderr)


# ---- selective instrumentation (docs/filters.md, docs/switching.md) ----

def _line_of(source, marker, nth=1):
    with open(os.path.join(PROGRAMS, source)) as f:
        for number, text in enumerate(f, 1):
            if marker in text:
                nth -= 1
                if nth == 0:
                    return number
    raise Failure("no %r in %s" % (marker, source))


def _take_profile(c, exe_name, keep_as=None):
    """The run's profile; the file is removed (or renamed) for the next run."""
    found = [f for f in os.listdir(c.work)
             if f.startswith("numaperf-%s-" % exe_name) and f.endswith(".json")]
    check(len(found) == 1, "expected one profile for %s, found %s" % (exe_name, found))
    path = os.path.join(c.work, found[0])
    with open(path) as f:
        p = json.load(f)
    if keep_as:
        os.rename(path, os.path.join(c.work, keep_as))
    else:
        os.remove(path)
    return p


def _remote_lines(p):
    return sorted(i["object"]["site"]["line"] for i in p["issues"] if i["kind"] == "remote_access")


def _remote_attribution(p):
    """Per remote-access issue (by allocation line): the allocation site and
    stack as (file, line, function) frames, which must not depend on
    whether profiling was on when the object was allocated."""
    out = {}
    for i in p["issues"]:
        if i["kind"] != "remote_access":
            continue
        o = i["object"]
        out[o["site"]["line"]] = (
            (os.path.basename(o["site"]["file"]), o["site"]["function"]),
            [(os.path.basename(f["file"]), f["line"], f["function"]) for f in o["stack"]],
            o["instances"])
    return out


def _functions(p):
    return {f["function"]: f for f in p["instrumentation"]["functions"]}


def _hook_calls(p):
    return sum(f["hook_calls"] for f in p["instrumentation"]["functions"])


PHASE1 = ("phases.c", "EXPECT: remote_access")
# Scores are rates: a low threshold keeps the checks independent of machine
# load (what is compared here is which objects have issues).
# Low enough for the planted issues on a loaded machine (their scores are in
# the thousands), high enough to leave out the slivers: each private_work
# buffer's partial last page keeps its previous thread as first toucher when
# glibc reuses the mapping (a known limitation), which scores in the tens.
LOW = {"NUMAPERF_REMOTE_THRESHOLD": "200"}
PHASE2 = ("phases.c", "PHASE2: remote_access")


def case_switch_region(c):
    exe = c.compile(["phases.c"], "phases")
    first, second = _line_of(*PHASE1), _line_of(*PHASE2)
    r = c.run(exe, env=LOW)
    whole = _take_profile(c, "phases")
    check(_remote_lines(whole) == [first, second],
          "whole run: expected issues at lines %d and %d, got %s" % (first, second, whole["issues"]))
    check(whole["instrumentation"]["profiling"]["always_on"], "whole run not always on")
    r = c.run(exe, env=dict(LOW, NUMAPERF_ACTIVE_REGIONS="solve"))
    check(r.stdout == "done\n", "program output changed: %r" % r.stdout)
    p = _take_profile(c, "phases")
    check_issues_match_markers(p, "phases.c")  # the region's issue, nothing outside it
    prof = p["instrumentation"]["profiling"]
    check(not prof["always_on"] and prof["active_regions"] == ["solve"], "profiling: %s" % prof)
    check(len(prof["periods"]) == 1 and 0 < prof["profiled_ms"] < p["program"]["wall_ms"],
          "expected one period shorter than the run: %s" % prof)
    check(0 < p["program"]["total_accesses"] < whole["program"]["total_accesses"],
          "accesses outside the region were counted")
    # shared_data was allocated before the region, with profiling off, and
    # read inside it: same site, stack and instances as in the whole run.
    off, on = _remote_attribution(p).get(first), _remote_attribution(whole).get(first)
    check(off is not None and off == on and any(f[2] == "main" for f in off[1]),
          "object allocated while off attributed differently:\n%s\nvs (always on)\n%s"
          % (off, on))
    check("profiled:" in r.stderr, "text report lacks the profiled periods:\n" + r.stderr)
    check("switched:   on inside regions solve" in r.stderr,
          "text report does not name the region:\n" + r.stderr)


def case_switch_off_and_signal(c):
    exe = c.compile(["phases.c"], "phases")
    r = c.run(exe, env=dict(LOW, NUMAPERF_ACTIVE="0"))
    check(r.stdout == "done\n", "program output changed: %r" % r.stdout)
    p = _take_profile(c, "phases")
    check(p["issues"] == [] and p["program"]["total_accesses"] == 0,
          "profiling off still saw accesses: %s" % p["program"])
    check(p["instrumentation"]["profiling"]["periods"] == [], "periods while off")
    # Off at start, the signal (raised by the program between the phases)
    # switches it on: only the second phase is profiled.
    r = c.run(exe, env=dict(LOW, NUMAPERF_ACTIVE="0", NUMAPERF_TOGGLE_SIGNAL="SIGUSR2"),
              args=["signal"])
    check(r.stdout == "done\n", "program output changed: %r" % r.stdout)
    p = _take_profile(c, "phases")
    check(_remote_lines(p) == [_line_of(*PHASE2)], "expected the second phase's issue only: %s"
          % json.dumps(p["issues"])[:2000])
    check(p["instrumentation"]["profiling"]["toggle_signal"] == "SIGUSR2", "signal not reported")


def case_held_frees(c):
    """Frees made with profiling off are held back per thread and passed on in
    batches: none may be lost when a thread ends or when profiling starts
    (the program checks glibc's bytes in use; tcache off, so that a freed
    block counts as free at once)."""
    exe = c.compile(["held_frees.c"], "held_frees")
    native = c.compile_native(["held_frees.c"], "held_frees_native",
                              extra=["-I", os.path.join(HERE, "..", "..", "include")])
    env = {"GLIBC_TUNABLES": "glibc.malloc.tcache_count=0", "NUMAPERF_REPORT": "none"}
    for label, binary, extra in (("native", native, {}), ("profiling off", exe,
                                 {"NUMAPERF_ACTIVE": "0"}), ("profiling on", exe, {})):
        r = c.run(binary, env=dict(env, **extra))
        check(r.stdout == "ok\n", "%s: %s" % (label, r.stdout.strip()))


def case_site_chains(c):
    """Allocations recorded while off by the short path (frame chains):
    objects from two call paths into one allocation line, in turn, keep
    their own stacks (programs/site_chains.c)."""
    exe = c.compile(["site_chains.c"], "site_chains")
    c.run(exe, env=dict(LOW, NUMAPERF_ACTIVE="0"))
    p = _take_profile(c, "site_chains")
    heap = [i for i in p["issues"] if i["kind"] == "remote_access" and
            i["object"]["kind"] == "heap"]
    check(len(heap) == 1, "expected one heap remote_access issue: %s" % json.dumps(p["issues"])[:2000])
    o = heap[0]["object"]
    fns = [f["function"] for f in o["stack"]]
    check(o["instances"] == 4000, "instances: %s" % o["instances"])
    check("via_shared" in fns and "via_private" not in fns,
          "the shared objects' stack is not shown: %s" % fns)


def case_filter_drops_hooks(c):
    filt = os.path.join(c.work, "drop.filter")
    with open(filt, "w") as f:
        f.write("# second phase's reader\nfun:read_other\n")
    exe = c.compile(["phases.c"], "phases", extra=["--numaperf-filter=" + filt])
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", exe], capture_output=True,
                         text=True).stdout
    body = dis.split("<read_other>:", 1)
    check(len(body) == 2, "read_other not found in the disassembly")
    body = body[1].split("\n\n", 1)[0]
    check("__numaperf_" not in body, "filtered function read_other calls hooks:\n" + body)
    check("read_other.numaperf.off" not in dis, "a function without hooks got a twin")
    check("read_shared.numaperf.off" in dis, "kept function read_shared has no twin")
    c.run(exe, env=LOW)
    p = _take_profile(c, "phases")
    fns = _functions(p)
    check(fns.get("read_other", {}).get("filtered") and fns["read_other"]["hooks"] == 0,
          "read_other not reported as filtered: %s" % fns.get("read_other"))
    check(fns.get("read_shared", {}).get("hooks", 0) > 0, "read_shared lost its hooks")
    check(_remote_lines(p) == [_line_of(*PHASE1)],
          "expected only the unfiltered phase's issue: %s" % json.dumps(p["issues"])[:2000])


def case_select_keeps_issues(c):
    exe = c.compile(["phases.c"], "phases")
    c.run(exe, env=LOW)
    full = _take_profile(c, "phases", keep_as="full.json")
    filt = os.path.join(c.work, "selected.filter")
    r = subprocess.run([os.path.join(c.bin, "numaperf"), "select",
                        os.path.join(c.work, "full.json"), "-o", filt],
                       capture_output=True, text=True)
    check(r.returncode == 0, "numaperf select failed: %s" % r.stderr)
    with open(filt) as f:
        text = f.read()
    entries = [l[4:] for l in text.splitlines() if l.startswith("fun:")]
    check("bump" in entries, "the hot function without issue was not dropped:\n" + text)
    for kept in ("read_shared", "read_other", "main", "phase"):
        check(kept not in entries, "%s (behind an issue) was dropped:\n%s" % (kept, text))
    exe2 = c.compile(["phases.c"], "phases_sel", extra=["--numaperf-filter=" + filt])
    c.run(exe2, env=LOW)
    sel = _take_profile(c, "phases_sel")
    check(_remote_lines(sel) == _remote_lines(full),
          "issues changed: %s vs %s" % (_remote_lines(sel), _remote_lines(full)))
    # Hook calls are counted (docs/filters.md): bump's go, phase's stay
    # (first run by main, which first touched both issue objects).
    fns = _functions(full)
    check(all(f.get("hook_calls_counted") for f in fns.values()), "hook calls not counted")
    check("phase" in text and "first touched" in text,
          "phase not kept for its first touches:\n" + text)
    check(_hook_calls(sel) < _hook_calls(full) - 0.9 * fns["bump"]["hook_calls"],
          "hook calls not cut by bump's: %d vs %d" % (_hook_calls(sel), _hook_calls(full)))
    check(sel["program"]["total_accesses"] < full["program"]["total_accesses"],
          "accesses not cut")

def _range_counts(p):
    """What range hooks must not change: accesses per thread, and per object
    the reads and writes, remote accesses and shared-page counts."""
    threads = {t["index"]: t["accesses"] for t in p["threads"]}
    objects = {}
    for o in p["bandwidth_signature"]["objects"]:
        key = o["object"]["site"]["line"]
        objects[key] = (o["read"]["accesses"], o["write"]["accesses"])
    issues = {}
    for i in p["issues"]:
        e = i["evidence"]
        issues[(i["kind"], i["object"]["site"]["line"])] = (
            e.get("remote_accesses"), e.get("shared_reads"), e.get("shared_writes"),
            e.get("shared_pages"))
    return threads, objects, issues


def case_range_hooks_match(c):
    """Range hooks count exactly what one hook per access counts."""
    results = []
    for name, ranges in (("ranges_on", "1"), ("ranges_off", "0")):
        os.environ["NUMAPERF_LOOP_RANGES"] = ranges  # read by the pass
        try:
            exe = c.compile(["range_patterns.c"], name)
        finally:
            del os.environ["NUMAPERF_LOOP_RANGES"]
        # Counts are compared, and the issues they make: per wall ms in both
        # builds, since the range build makes too few hook calls for its
        # hooks' share to be measured (scores.md, "Score time"), and a
        # borderline object would be scored on different times.
        r = c.run(exe, env=dict(GROUND_TRUTH_ENV, NUMAPERF_SCORE_TIME="wall"))
        results.append((r.stdout, _range_counts(c.profile(name))))
    (out_on, on), (out_off, off) = results
    check(out_on == out_off, "program output differs: %r vs %r" % (out_on, out_off))
    check(on[0] == off[0], "accesses per thread differ: %s vs %s" % (on[0], off[0]))
    check(on[1] == off[1], "reads/writes per object differ: %s vs %s" % (on[1], off[1]))
    check(on[2] and on[2] == off[2], "issues differ: %s vs %s" % (on[2], off[2]))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("case", choices=sorted(CASES))
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="numaperf-e2e-")
    try:
        CASES[args.case](Case(os.path.abspath(args.build_dir), work))
    except Failure as e:
        print("FAIL %s: %s" % (args.case, e))
        print("(work directory kept: %s)" % work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("PASS %s" % args.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
