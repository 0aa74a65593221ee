"""Selective-instrumentation modes of the benchmark harness (run.py --selective).

After the main table, for every workload whose three builds ran:
  profiling off   the numaperf build run with NUMAPERF_ACTIVE=0, alternated
                  with the native build: its time ratio to native (target: within
                  5%, docs/switching.md). Every instrumented function then runs its
                  uninstrumented twin after one load and one branch at entry. With
                  --baseline-build-dir, the same workload built with that numaperf
                  tree (its own runtime) runs off in the same rotation: a before /
                  after comparison measured side by side.
  region program  workloads/regions.c (REGION_PROGRAM): two phases, a region
                  marker around the first, a planted issue in each. Its plain
                  build and its numaperf build run alternately, the latter with
                  profiling off, with only the region profiled
                  (NUMAPERF_ACTIVE_REGIONS) and profiled whole: the off ratio
                  (target within 5%), and whether every region profile reports
                  the region's issue and nothing else (a failure otherwise).
  selected        `numaperf select` on the first numaperf profile of the main run
                  writes a filter; the workload is rebuilt with
                  --numaperf-filter=FILE and run alternately with the full numaperf
                  build: time ratio selected/full (and to native), and how many
                  of the full profile's issues the selected profile still reports.
See docs/benchmarks.md and docs/filters.md.
"""

import json
import os
import re
import statistics
import subprocess

from plants import find_plants, issue_matches
from stats import geomean, paired_ratio

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKSUM_RE = re.compile(r"^checksum:\s*(\S+)\s*$", re.M)
OFF_TARGET = 1.05

# Issue 10's end-to-end program: the planted issue marked "(in region)" lies
# inside the region, any other outside it.
REGION_PROGRAM = dict(name="regions", src="regions.c", region="solve",
                      args=dict(n=1 << 22, sweeps=120, private=1 << 16),
                      quick=dict(n=1 << 16, sweeps=4, private=1024),
                      stresses="two phases, a region marker around the first")


def _issue_keys(profile):
    """Issue identities that do not depend on scores: kind and object site."""
    keys = set()
    for i in profile.get("issues", []):
        site = i.get("object", {}).get("site", {})
        name = i.get("object", {}).get("name")
        keys.add((i.get("kind"), name or "%s:%s" % (os.path.basename(site.get("file", "")),
                                                   site.get("line", 0))))
    return keys


def stable_issues(issue_sets):
    """(stable, borderline) of the issue key sets of several runs of one
    build: the keys every run reports, and those only some runs report (an
    issue near its threshold comes and goes with the run)."""
    if not issue_sets:
        return set(), set()
    stable = set.intersection(*issue_sets)
    return stable, set().union(*issue_sets) - stable


def _load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _clean_env():
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("NUMAPERF_"):
            del env[k]
    return env


def _median_runs(h, run, variants, argv, rundir, log):
    """Runs each (name, path, extra env) variant h.o.reps times, rotating the
    order; returns name -> median seconds (None if a run failed) and the
    profiles written by runs that asked for one, and name -> the runs
    (status, seconds) in repetition order."""
    times = {name: [] for name, _, _ in variants}
    runs = {name: [] for name, _, _ in variants}
    profiles = {name: [] for name, _, _ in variants}
    for rep in range(h.o.reps):
        k = rep % len(variants)
        for name, path, extra in variants[k:] + variants[:k]:
            base = os.path.join(rundir, "%s-%d" % (name, rep))
            env = _clean_env()
            env["NUMAPERF_JSON"] = base + ".json"
            env["NUMAPERF_REPORT"] = "none"
            env.update(extra)
            st, wall, _, _ = run(h.measure, [path] + argv, env, h.o.timeout, base + ".out")
            log("  %-9s rep %d: %-7s %7.3fs %s" % (name, rep + 1, st["status"], wall or 0,
                                                   st.get("detail", "")))
            times[name].append(wall if st["status"] == "ok" else None)
            runs[name].append(dict(status=st["status"], seconds=wall))
            if os.path.exists(base + ".json"):
                profiles[name].append(base + ".json")
    med = {n: (statistics.median(v) if v and None not in v else None) for n, v in times.items()}
    return med, profiles, runs


def _baseline_build(h, w, log):
    """The workload built with --baseline-build-dir's wrapper (which links
    that tree's runtime), or None."""
    bdir = os.path.abspath(h.o.baseline_build_dir)
    out = os.path.join(h.work, "baseline", w["name"])
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = h.build_cmd(w, "numaperf", out)
    cmd[0] = os.path.join(bdir, "bin", os.path.basename(cmd[0]))
    b = subprocess.run(cmd, capture_output=True, text=True, env=_clean_env())
    if b.returncode != 0:
        log("  baseline build failed: " + b.stderr.strip()[-300:])
        return None
    return out


def run_region_program(h, timed_run, log):
    """Builds and measures REGION_PROGRAM (see the module comment); returns
    its row, and adds to h.failures when a region profile misses the
    region's issue or reports anything else."""
    w = dict(REGION_PROGRAM, flags=["-I", os.path.join(os.path.dirname(HERE), "include")])
    row = dict(name=w["name"], region=w["region"])
    log("%s (region program, region %r):" % (w["name"], w["region"]))
    paths = {}
    for variant in ("native", "numaperf"):
        out = os.path.join(h.work, "region-program", variant, w["name"])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        b = subprocess.run(h.build_cmd(w, variant, out), capture_output=True, text=True,
                           env=_clean_env())
        if b.returncode != 0:
            row["problem"] = "%s build failed: %s" % (variant, b.stderr.strip()[-300:])
            h.failures.append("region program: " + row["problem"])
            return row
        paths[variant] = out
    args = dict(w["quick"] if h.o.quick else w["args"], threads=h.o.threads)
    argv = ["%s=%s" % kv for kv in sorted(args.items())]
    row["args"] = argv
    rundir = os.path.join(h.work, "runs-selective", w["name"])
    os.makedirs(rundir, exist_ok=True)
    med, profiles, runs = _median_runs(h, timed_run, [
        ("native", paths["native"], {}),
        ("off", paths["numaperf"], {"NUMAPERF_ACTIVE": "0"}),
        ("region", paths["numaperf"], {"NUMAPERF_ACTIVE_REGIONS": w["region"]}),
        ("full", paths["numaperf"], {})], argv, rundir, log)
    if med["native"]:
        for name in ("off", "region", "full"):
            if med[name]:
                row[name + "_ratio"] = med[name] / med["native"]
        row["off_paired_ratio"] = paired_ratio(runs["off"], runs["native"])
    # The program must print what the plain build prints, in every mode.
    sums = {}
    for name in ("native", "off", "region", "full"):
        for rep in range(h.o.reps):
            try:
                with open(os.path.join(rundir, "%s-%d.out" % (name, rep))) as f:
                    m = CHECKSUM_RE.search(f.read())
            except OSError:
                m = None
            sums.setdefault(name, set()).add(m.group(1) if m else None)
    if any(v != sums["native"] or None in v for v in sums.values()):
        row["problem"] = "output differs from the plain build's: %s" % sums
        h.failures.append("region program: " + row["problem"])
        return row
    plants = find_plants(os.path.join(HERE, "workloads", w["src"]))
    inside = [p for p in plants if p["in_region"]]
    outside = [p for p in plants if not p["in_region"]]

    def found(plant, name):
        """In how many of the variant's profiles the plant is reported."""
        return sum(1 for prof in map(_load, profiles[name]) if prof and
                   any(issue_matches(i, plant) for i in prof.get("issues", [])))

    region_profiles = [p for p in map(_load, profiles["region"]) if p]
    full_profiles = [p for p in map(_load, profiles["full"]) if p]
    row["profiles"] = dict(region=len(region_profiles), full=len(full_profiles))
    row["inside_found"] = min((found(p, "region") for p in inside), default=0)
    row["outside_found"] = max((found(p, "region") for p in outside), default=0)
    row["full_found"] = min((found(p, "full") for p in plants), default=0)
    # Anything a region profile reports that is not the region's plant.
    row["other_issues"] = max((sum(1 for i in prof.get("issues", [])
                                   if not any(issue_matches(i, p) for p in inside))
                               for prof in region_profiles), default=0)
    problems = []
    if not region_profiles or row["inside_found"] < len(region_profiles):
        problems.append("the region's issue missed by %d of %d region profiles"
                        % (len(region_profiles) - row["inside_found"], len(region_profiles)))
    if row["other_issues"]:
        problems.append("a region profile reports %d issue(s) outside the region"
                        % row["other_issues"])
    if not full_profiles or row["full_found"] < len(full_profiles):
        problems.append("a whole-run profile misses a planted issue (the region check "
                        "would prove nothing)")
    if problems:
        row["problem"] = "; ".join(problems)
        h.failures.append("region program: " + row["problem"])
    return row


def run(h, selected, results, timed_run, log, region_program=True):
    """Measures both modes for the workloads of `results`, and the region
    program when asked; prints a table and returns the summary stored in
    the result file."""
    numaperf_tool = os.path.join(h.build_dir, "bin", "numaperf")
    rows = []
    log("\nselective instrumentation (profiling off, profile-derived filter):")
    for w, s in zip(selected, results):
        builds = s.get("builds", {})
        if not all(builds.get(v, {}).get("ok") for v in ("native", "numaperf")):
            continue
        log("%s:" % w["name"])
        row = dict(name=w["name"])
        rundir = os.path.join(h.work, "runs-selective", w["name"])
        os.makedirs(rundir, exist_ok=True)
        argv = s["args"]
        # -- profiling off
        variants = [("native", builds["native"]["path"], {}),
                    ("off", builds["numaperf"]["path"], {"NUMAPERF_ACTIVE": "0"})]
        base = _baseline_build(h, w, log) if h.o.baseline_build_dir else None
        if base:
            variants.append(("off-base", base, {"NUMAPERF_ACTIVE": "0"}))
        med, _, runs = _median_runs(h, timed_run, variants, argv, rundir, log)
        if med["native"] and med["off"]:
            row["off_ratio"] = med["off"] / med["native"]
            # The same, repetition by repetition (docs/benchmarks.md,
            # "Reading the numbers").
            row["off_paired_ratio"] = paired_ratio(runs["off"], runs["native"])
        if med["native"] and med.get("off-base"):
            row["off_base_ratio"] = med["off-base"] / med["native"]
        # -- profile-derived filter
        full = next((r["profile"] for r in s["runs"].get("numaperf", [])
                     if r.get("status") == "ok" and os.path.exists(r.get("profile", ""))), None)
        if full is None:
            row["problem"] = "no full profile"
            rows.append(row)
            continue
        filt = os.path.join(rundir, "selected.filter")
        r = subprocess.run([numaperf_tool, "select", full, "-o", filt], capture_output=True,
                           text=True)
        if r.returncode != 0:
            row["problem"] = "numaperf select failed: " + r.stderr.strip()[-300:]
            rows.append(row)
            continue
        with open(filt) as f:
            row["dropped_functions"] = sum(1 for l in f if l.startswith("fun:"))
        out = os.path.join(h.work, "selected", w["name"])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = h.build_cmd(w, "numaperf", out)
        cmd.insert(1, "--numaperf-filter=" + filt)
        b = subprocess.run(cmd, capture_output=True, text=True, env=_clean_env())
        if b.returncode != 0:
            row["problem"] = "selected build failed: " + b.stderr.strip()[-300:]
            rows.append(row)
            continue
        med, profiles, _ = _median_runs(h, timed_run, [
            ("full", builds["numaperf"]["path"], {}),
            ("selected", out, {})], argv, rundir, log)
        if med["full"] and med["selected"]:
            row["selected_vs_full"] = med["selected"] / med["full"]
            nat = s["median"].get("native", {}).get("seconds")
            if nat:
                row["selected_ratio"] = med["selected"] / nat
                row["full_ratio"] = med["full"] / nat
        # The issues every full run reports; one near its threshold that only
        # some full runs report is borderline, and not asked of the selected
        # build either (it comes and goes with the run, filter or not).
        full_runs = [r["profile"] for r in s["runs"].get("numaperf", [])
                     if r.get("status") == "ok" and os.path.exists(r.get("profile", ""))]
        full_keys, borderline = stable_issues(
            [_issue_keys(p) for p in map(_load, full_runs + profiles["full"]) if p])
        sel = [_load(p) for p in profiles["selected"]]
        kept = [len(full_keys & _issue_keys(p)) for p in sel if p]
        row["issues_full"] = len(full_keys)
        row["issues_borderline"] = len(borderline)
        row["issues_kept"] = min(kept) if kept else None
        rows.append(row)

    def fx(x):
        return "%.2fx" % x if x is not None else "-"

    base = bool(h.o.baseline_build_dir)
    hdr = "%-13s %9s %9s %9s %9s %9s %8s %s" % ("workload", "off/nat", "base-off",
                                                "full/nat", "sel/nat", "sel/full", "dropped",
                                                "issues kept")
    lines = [hdr, "-" * len(hdr)]
    for r in rows:
        kept = "-" if r.get("issues_kept") is None else "%d/%d" % (r["issues_kept"],
                                                                  r["issues_full"])
        if r.get("issues_borderline"):
            kept += " (+%d borderline)" % r["issues_borderline"]
        lines.append("%-13s %9s %9s %9s %9s %9s %8s %s%s" % (
            r["name"], fx(r.get("off_ratio")), fx(r.get("off_base_ratio")) if base else "",
            fx(r.get("full_ratio")),
            fx(r.get("selected_ratio")), fx(r.get("selected_vs_full")),
            r.get("dropped_functions", "-"), kept,
            ("  " + r["problem"]) if r.get("problem") else ""))
    region = run_region_program(h, timed_run, log) if region_program else None
    summary = dict(rows=rows, off_target=OFF_TARGET)
    if region:
        summary["region_program"] = region
    for key in ("off_ratio", "off_paired_ratio", "off_base_ratio", "selected_vs_full"):
        vals = [r[key] for r in rows if r.get(key)]
        if vals:
            summary[key + "_geomean"] = geomean(vals)
            summary[key + "_worst"] = max(vals)
    lines.append("-" * len(hdr))
    if "off_ratio_geomean" in summary:
        # Issue 10's 5% holds for a program (the region program below) and
        # for the workloads' geomean; the workloads above it are named.
        above = ["%s %.2fx" % (r["name"], r["off_ratio"]) for r in rows
                 if r.get("off_ratio") and r["off_ratio"] > OFF_TARGET]
        lines.append("profiling off: geomean %.3fx of native (target <= %.2fx: %s), worst %.3fx%s" % (
            summary["off_ratio_geomean"], OFF_TARGET,
            "met" if summary["off_ratio_geomean"] <= OFF_TARGET else "NOT met",
            summary["off_ratio_worst"],
            "; above %.2fx: %s" % (OFF_TARGET, ", ".join(above)) if above else ""))
    if "off_paired_ratio_geomean" in summary:
        lines.append("profiling off, paired: geomean %.3fx, worst %.3fx of native" % (
            summary["off_paired_ratio_geomean"], summary["off_paired_ratio_worst"]))
    if "off_base_ratio_geomean" in summary:
        lines.append("profiling off, baseline build (%s): geomean %.3fx, worst %.3fx of native" % (
            h.o.baseline_build_dir, summary["off_base_ratio_geomean"],
            summary["off_base_ratio_worst"]))
    if "selected_vs_full_geomean" in summary:
        lines.append("profile-derived filter: geomean %.3fx of the full numaperf time" %
                     summary["selected_vs_full_geomean"])
    if region:
        lines.append(region_line(region))
    print("\n" + "\n".join(lines), flush=True)
    return summary


def region_line(r):
    """The region program's verdicts in one line."""
    if r.get("off_ratio") is None:
        return "region program (%s): %s" % (r["name"], r.get("problem", "no timing"))
    prof = r.get("profiles", {})
    return ("region program (%s, region %r): profiling off %.3fx of native, paired %.3fx "
            "(target <= %.2fx: %s); region profiled %.2fx, whole run %.2fx; region's issue "
            "in %d/%d region profiles, %d other issue(s) (target 0: %s)%s" % (
                r["name"], r["region"], r["off_ratio"], r.get("off_paired_ratio") or 0,
                OFF_TARGET, "met" if r["off_ratio"] <= OFF_TARGET else "NOT met",
                r.get("region_ratio") or 0, r.get("full_ratio") or 0,
                r.get("inside_found", 0), prof.get("region", 0), r.get("other_issues", 0),
                "met" if not r.get("other_issues") and r.get("inside_found") else "NOT met",
                ("  " + r["problem"]) if r.get("problem") else ""))
