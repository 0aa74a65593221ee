#!/usr/bin/env python3
"""Real code bases from the npm registry, built by their own gyp build steps
natively and with numaperf-clang, run under the drivers of this folder: the
two runs must print the same and exit the same, and the profiled one must
write a complete profile whose report shows what docs/realcode.md describes.

Usage: run_realcode.py --build-dir DIR sqlite|argon2|gyp|offline
Exit 77 (ctest SKIP_RETURN_CODE) when the registry cannot be reached.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import npm_sources  # noqa: E402
from run_case import Failure, _no_core_files, check, check_complete_profiles  # noqa: E402

SCHEMA_CHECK = os.path.join(HERE, "..", "cli", "schema_check.py")
SCHEMA = os.path.join(HERE, "..", "..", "docs", "schema", "profile.schema.json")
SKIP = 77
RUN_TIMEOUT_S = 900  # the instrumented SQLite run on a loaded 2-core machine


class Build:
    """One way of compiling: native clang or the numaperf wrapper. Objects of
    the packages' sources are cached under BUILD/realcode/objects by a key of
    compiler identity, flags and source text (sqlite3.c takes minutes)."""

    def __init__(self, build_dir, work, instrumented):
        self.build_dir, self.work, self.instrumented = build_dir, work, instrumented
        self.cc = os.path.join(build_dir, "bin", "numaperf-clang") if instrumented else \
            (shutil.which("clang") or "cc")
        self.tag = "numaperf" if instrumented else "native"
        self.cache = os.path.join(build_dir, "realcode", "objects")

    def _identity(self):
        h = hashlib.sha256(self.cc.encode())
        files = [self.cc]
        if self.instrumented:  # the object depends on the pass and the wrapper
            files.append(os.path.join(self.build_dir, "lib", "numaperf", "NumaPerfPass.so"))
        for f in files:
            with open(os.path.realpath(f), "rb") as fh:
                h.update(fh.read())
        return h

    def _run(self, cmd):
        t = time.time()
        r = subprocess.run(cmd, cwd=self.work, capture_output=True, text=True)
        check(r.returncode == 0, "%s compile failed: %s\n%s" % (self.tag, " ".join(cmd),
                                                                 r.stderr[-3000:]))
        return time.time() - t

    def object(self, source, flags):
        h = self._identity()
        h.update("\0".join(flags).encode())
        with open(source, "rb") as f:
            h.update(f.read())
        obj = os.path.join(self.cache, "%s-%s-%s.o" % (os.path.basename(source), self.tag,
                                                         h.hexdigest()[:16]))
        if not os.path.exists(obj):
            os.makedirs(self.cache, exist_ok=True)
            tmp = obj + ".tmp.%d" % os.getpid()
            took = self._run([self.cc, *flags, "-c", source, "-o", tmp])
            os.rename(tmp, obj)
            stem = "%s-%s-" % (os.path.basename(source), self.tag)
            for old in os.listdir(self.cache):  # objects of an older compiler or source
                if old.startswith(stem) and old.endswith(".o") and \
                        os.path.join(self.cache, old) != obj:
                    os.remove(os.path.join(self.cache, old))
            print("compiled %s (%s) in %.1f s" % (os.path.basename(source), self.tag, took))
        return obj

    def program(self, name, driver, objects, flags, libs=()):
        exe = os.path.join(self.work, name if self.instrumented else name + "_native")
        took = self._run([self.cc, *flags, "-pthread", os.path.join(HERE, driver), *objects,
                          "-o", exe, *libs])
        print("built %s (%s) in %.1f s" % (driver, self.tag, took))
        return exe


def run(exe, work, args, env=None):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMAPERF_")}
    full_env.update(env or {})
    t = time.time()
    r = subprocess.run([exe, *args], cwd=work, capture_output=True, text=True, env=full_env,
                       timeout=RUN_TIMEOUT_S, preexec_fn=_no_core_files)
    print("ran %s %s in %.1f s (status %d)" % (os.path.basename(exe), " ".join(args),
                                               time.time() - t, r.returncode))
    return r


def same_behaviour(native, profiled, what):
    check(profiled.returncode == native.returncode,
          "%s: exit status %d under numaperf, %d native\nstderr:\n%s"
          % (what, profiled.returncode, native.returncode, profiled.stderr[-3000:]))
    check(profiled.stdout == native.stdout, "%s: output differs from the native run:\n%s\n---\n%s"
          % (what, profiled.stdout, native.stdout))
    check("numaperf:" not in profiled.stderr, "%s: runtime messages:\n%s" % (what, profiled.stderr))
    check("numaperf NUMA report" in profiled.stderr, "%s: no text report on stderr" % what)


def take_profile(work, name, keep_as):
    """The run's one complete profile, schema-checked and re-rendered by
    `numaperf report`, renamed to keep_as; returns it parsed."""
    check_complete_profiles(Ctx(work), name, 1)
    found = [f for f in os.listdir(work) if f.startswith("numaperf-%s-" % name)][0]
    path = os.path.join(work, keep_as)
    os.rename(os.path.join(work, found), path)
    r = subprocess.run([sys.executable, SCHEMA_CHECK, SCHEMA, path], capture_output=True, text=True)
    check(r.returncode == 0, "profile does not match the schema:\n" + r.stdout + r.stderr)
    with open(path) as f:
        return json.load(f)


def rerender(build_dir, path):
    r = subprocess.run([os.path.join(build_dir, "bin", "numaperf"), "report", path],
                       capture_output=True, text=True)
    check(r.returncode == 0 and "numaperf NUMA report" in r.stdout,
          "numaperf report failed on %s: %s" % (path, r.stderr))
    return r.stdout


class Ctx:  # what check_complete_profiles needs of run_case's Case
    def __init__(self, work):
        self.work = work


def package_steps(build_dir, name):
    package = npm_sources.fetch(os.path.join(build_dir, "realcode"), name)
    return npm_sources.build_steps(package, name)


def both_builds(build_dir, work, name, driver, libs=()):
    steps = package_steps(build_dir, name)
    flags = npm_sources.compile_flags(steps)
    # The driver uses the package's headers and optimisation, not its defines.
    driver_flags = [f for f in flags if f.startswith(("-I", "-O"))]
    builds = [Build(build_dir, work, instrumented) for instrumented in (False, True)]
    # Native and instrumented objects side by side: sqlite3.c takes minutes each.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        objects = list(pool.map(lambda b: [b.object(s, flags) for s in steps["sources"]],
                                builds))
    out = [b.program(driver.split(".")[0], driver, o, driver_flags, libs)
           for b, o in zip(builds, objects)]
    return steps, out[0], out[1]


# The access thresholds of the e2e ground-truth cases: scores per ms depend on
# the machine's speed, so the checks read the machine-independent evidence.
LOW_THRESHOLDS = {"NUMAPERF_REMOTE_THRESHOLD": "100", "NUMAPERF_FALSE_SHARING_THRESHOLD": "1",
                  "NUMAPERF_TRUE_SHARING_THRESHOLD": "1"}


def issues_at(profile, kind, file_suffix, function):
    return [i for i in profile["issues"] if i["kind"] == kind and i["object"]["kind"] == "heap"
            and i["object"]["site"]["file"].endswith(file_suffix)
            and i["object"]["site"]["function"] == function]


def case_argon2(build_dir, work):
    steps, native, profiled = both_builds(build_dir, work, "argon2", "argon2_lanes.c")
    check(any(s.endswith("/opt.c") for s in steps["sources"]), "x64 build without opt.c")
    # Known answers (RFC 9106, 4 lanes in 4 threads): the native build must pass them.
    kat_n = run(native, work, ["kat"])
    check(kat_n.returncode == 0 and kat_n.stdout.count(": ok") == 3,
          "native build fails the RFC 9106 vectors:\n" + kat_n.stdout)
    same_behaviour(kat_n, run(profiled, work, ["kat"], {"NUMAPERF_JSON": "none"}), "kat")
    n = run(native, work, ["hash"])
    check(n.returncode == 0 and n.stdout.startswith("$argon2id$v=19$m=65536,t=3,p=4$"),
          "native hash: " + n.stdout)
    r = run(profiled, work, ["hash"], LOW_THRESHOLDS)
    same_behaviour(n, r, "hash")
    p = take_profile(work, "argon2_lanes", "argon2.json")
    # 1 main + 4 lanes x 4 slices x 3 passes: a new thread per lane and slice.
    check(p["program"]["threads"] == 49, "threads: %d, expected 49" % p["program"]["threads"])
    fill = [t for t in p["threads"] if t["type"] == "fill_segment_thr"]
    check(len(fill) == 48, "fill_segment_thr threads: %d" % len(fill))
    remote = issues_at(p, "remote_access", "argon2/src/core.c", "allocate_memory")
    check(len(remote) == 1, "no remote_access issue on the memory matrix (core.c "
          "allocate_memory): %s" % json.dumps([(i["kind"], i["object"]["site"])
                                               for i in p["issues"]]))
    i = remote[0]
    e = i["evidence"]
    check(i["object"]["size"] == 64 << 20, "matrix size %s" % i["object"]["size"])
    # Every page of the matrix is used by several of the short-lived lane threads
    # (blocks reference blocks of other lanes and of earlier slices).
    check(e["shared_pages"] >= 16384 and e["single_thread_pages"] == 0,
          "matrix pages not shared: %s" % e)
    check(e["max_threads_per_page"] >= 8, "max_threads_per_page %s" % e["max_threads_per_page"])
    check(e["share_of_program_remote_accesses"] > 0.5,
          "the matrix is not where most remote accesses are: %s" % e)
    check(i["normalized_score"] > 100, "normalized score %s" % i["normalized_score"])
    check(i["fix"] == "page_interleave", "fix %s" % i["fix"])
    sites = {(s["function"], os.path.basename(s["file"])) for s in e["access_sites"]}
    check(("fill_block", "opt.c") in sites, "fill_block not among the access sites: %s" % sites)
    text = rerender(build_dir, os.path.join(work, "argon2.json"))
    check("core.c:105 in allocate_memory" in text or "allocate_memory" in text,
          "re-rendered report lacks the matrix")


def case_sqlite(build_dir, work):
    steps, native, profiled = both_builds(build_dir, work, "better-sqlite3", "sqlite_threads.c",
                                          libs=["-lm"])
    check("SQLITE_THREADSAFE=2" in steps["defines"], "defines not read: %s" % steps["defines"])
    rows = os.environ.get("NUMAPERF_REALCODE_SQLITE_ROWS", "4000")
    n = run(native, work, ["native.db", rows])
    check(n.returncode == 0 and "final: rows %d " % (4 * int(rows)) in n.stdout,
          "native run:\n" + n.stdout + n.stderr)
    # The read-only tables' scores sit near 100 per ms: a lower remote threshold.
    r = run(profiled, work, ["profiled.db", rows], dict(LOW_THRESHOLDS,
                                                        NUMAPERF_REMOTE_THRESHOLD="10"))
    same_behaviour(n, r, "sqlite")
    check_sqlite_profile(take_profile(work, "sqlite_threads", "sqlite.json"))
    rerender(build_dir, os.path.join(work, "sqlite.json"))


def check_sqlite_profile(p):
    """What the report shows of SQLite (docs/realcode.md): each connection
    works in its own heap memory, so no heap object has remote accesses worth
    an issue; the threads share through the WAL index, a file mapping the
    runtime does not track, which the notes count."""
    check(p["program"]["threads"] == 5, "threads: %d, expected 5" % p["program"]["threads"])
    work = [t for t in p["threads"] if t["type"] == "work"]
    check(len(work) == 4 and all(t["barrier_waits"] == 2 and t["accesses"] > 0 for t in work),
          "the 4 worker threads with their 2 barrier waits: %s" % p["threads"])
    # Connection memory is private: no sharing issue on the heap, and a remote
    # access issue (seen on the sorter's realloc'd buffers, docs/realcode.md)
    # has pages each used by one thread (fix local_allocation).
    heap = [i for i in p["issues"] if i["object"]["kind"] == "heap"]
    check(all(i["kind"] == "remote_access" and i["fix"] == "local_allocation" for i in heap),
          "heap shared between threads: %s" % json.dumps(heap)[:2000])
    # What the threads do share in memory: SQLite's table of built-in SQL
    # functions, filled by main at initialisation and searched by every
    # statement's preparation in every thread; read-only, so "duplicate".
    table = [i for i in p["issues"] if i["object"]["kind"] == "global" and
             i["object"]["name"] == "sqlite3RegisterBuiltinFunctions.aBuiltinFunc"]
    check(len(table) == 1 and table[0]["kind"] == "remote_access",
          "no remote access issue on aBuiltinFunc: %s"
          % [(i["kind"], i["object"]["name"]) for i in p["issues"]])
    e = table[0]["evidence"]
    check(table[0]["fix"] == "duplicate" and e["shared_writes"] == 0 and
          e["max_threads_per_page"] >= 4, "aBuiltinFunc: fix %s, evidence %s"
          % (table[0]["fix"], {k: v for k, v in e.items() if k != "access_sites"}))
    check(any(s["function"] == "sqlite3FunctionSearch" for s in e["access_sites"]),
          "sqlite3FunctionSearch not among the sites: %s" % e["access_sites"])
    # Every SQLite allocation comes from its malloc wrapper: one site.
    objects = p["bandwidth_signature"]["objects"]
    sites = [o for o in objects if o["object"]["kind"] == "heap"
             and o["object"]["site"]["function"] == "sqlite3MemMalloc"]
    check(len(sites) == 1, "no heap object at sqlite3MemMalloc: %s"
          % [o["object"]["site"] for o in objects])
    o = sites[0]
    total = sum(x["read"]["accesses"] + x["write"]["accesses"] for x in objects)
    mine = o["read"]["accesses"] + o["write"]["accesses"]
    check(mine > 0.5 * total, "sqlite3MemMalloc has %.0f of %.0f accesses" % (mine, total))
    check(o["object"]["instances"] > 1000, "instances: %s" % o["object"]["instances"])
    check(o["read"]["local"] > 0.9 and o["write"]["local"] > 0.9,
          "connection memory not local: %s %s" % (o["read"], o["write"]))
    untracked = [n for n in p["notes"] if "fell outside tracked heap objects" in n]
    check(untracked and int(untracked[0].split()[0]) > 0,
          "no remote accesses outside tracked objects (the WAL index): %s" % p["notes"])


def case_gyp(build_dir, work):
    """The gyp reading, on a package-like description written here."""
    base = os.path.join(work, "pkg")
    os.makedirs(base)
    with open(os.path.join(base, "common.gypi"), "w") as f:
        f.write("{'target_defaults': {'configurations': {'Release': {'defines': ['NDEBUG'],"
                " 'cflags': ['-O2']}, 'Debug': {'defines': ['DEBUG']}}}}\n")
    with open(os.path.join(base, "lib.gyp"), "w") as f:
        f.write("""{
  'includes': ['common.gypi'],  # comments and trailing commas, as in gyp
  'targets': [{
    'target_name': 'lib',
    'sources': ['a.c'],
    'defines': ['X=1', 'DROP'],
    'defines!': ['DROP'],
    'conditions': [
      ["target_arch == 'ia32' or target_arch == 'x64'", {'sources+': ['simd.c']},
       {'sources+': ['ref.c']}],
      ["OS not in 'ios mac'", {'cflags+': ['-fvisibility=hidden']}],
      ['OS == "win"', {'defines': ['WIN32']}],
    ],
  }, {'target_name': 'other', 'sources': ['b.c']}],
}""")
    old = npm_sources.PACKAGES.get("test")
    npm_sources.PACKAGES["test"] = {"version": "0", "gyp": "lib.gyp", "target": "lib"}
    try:
        steps = npm_sources.build_steps(base, "test")
    finally:
        npm_sources.PACKAGES.pop("test")
    names = [os.path.basename(s) for s in steps["sources"]]
    check(names == ["simd.c", "a.c"], "sources %s" % names)
    check(steps["defines"] == ["NDEBUG", "X=1"], "defines %s" % steps["defines"])
    check(steps["cflags"] == ["-O3", "-O2", "-fvisibility=hidden"], "cflags %s" % steps["cflags"])


def case_offline(build_dir, work):
    """An unreachable registry is a skip with a clear message, not a failure."""
    env = dict(os.environ, npm_config_registry="http://127.0.0.1:9/",
               npm_config_cache=os.path.join(work, "npm-cache"), npm_config_fetch_retries="0",
               npm_config_offline="false")
    r = subprocess.run([sys.executable, os.path.join(HERE, "npm_sources.py"),
                        os.path.join(work, "cache"), "argon2"], env=env, capture_output=True,
                       text=True, timeout=npm_sources.FETCH_TIMEOUT_S + 30)
    check(r.returncode == SKIP, "exit %d, expected %d: %s" % (r.returncode, SKIP, r.stderr))
    check(r.stderr.startswith("npm registry unreachable: npm pack argon2@"),
          "unclear message: %r" % r.stderr)
    check(not os.listdir(os.path.join(work, "cache")), "partial download left in the cache")


CASES = {"argon2": case_argon2, "sqlite": case_sqlite, "gyp": case_gyp, "offline": case_offline}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("case", choices=sorted(CASES))
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="numaperf-realcode-")
    try:
        CASES[args.case](os.path.abspath(args.build_dir), work)
    except npm_sources.Unreachable as e:
        print("SKIP %s: npm registry unreachable (%s)" % (args.case, e))
        shutil.rmtree(work, ignore_errors=True)
        return SKIP
    except Failure as e:
        print("FAIL %s: %s" % (args.case, e))
        print("(work directory kept: %s)" % work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("PASS %s" % args.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
