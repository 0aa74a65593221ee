#!/usr/bin/env python3
"""Tests of the `numaperf` command: real programs built with numaperf-clang,
their profiles, and hand-made profiles for every exit code and bad input.

Usage: cli_cases.py --build-dir DIR CASE
Exit status 0 pass, 1 fail, 77 skipped (ctest SKIP_RETURN_CODE).
"""
import argparse
import copy
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = os.path.join(ROOT, "tests", "e2e", "programs")
SCHEMA = os.path.join(ROOT, "docs", "schema", "profile.schema.json")
SKIP = 77


class Failure(Exception):
    pass


class Skip(Exception):
    pass


def check(cond, message):
    if not cond:
        raise Failure(message)


class Env:
    def __init__(self, build_dir, work):
        self.bin = os.path.join(build_dir, "bin")
        self.numaperf = os.path.join(self.bin, "numaperf")
        self.work = work

    def path(self, name):
        return os.path.join(self.work, name)

    def compile(self, source, output, extra=()):
        cc = os.path.join(self.bin, "numaperf-clang++" if source.endswith(".cpp") else "numaperf-clang")
        cmd = [cc, "-O1", "-pthread", *extra, os.path.join(PROGRAMS, source), "-o", self.path(output)]
        r = subprocess.run(cmd, cwd=self.work, capture_output=True, text=True)
        check(r.returncode == 0, "compile failed: %s\n%s" % (" ".join(cmd), r.stderr))
        return self.path(output)

    def run_program(self, exe, env, args=()):
        full = dict(os.environ)
        for k in list(full):
            if k.startswith("NUMAPERF_"):
                del full[k]
        full.update(env)
        return subprocess.run([exe, *args], cwd=self.work, capture_output=True, env=full, timeout=120)

    def np(self, *args, expect=None, stdin=None, env=None, text=True):
        full = dict(os.environ)
        full.pop("NO_COLOR", None)
        full.update(env or {})
        r = subprocess.run([self.numaperf, *args], cwd=self.work, capture_output=True, text=text,
                           input=stdin, env=full, timeout=120)
        check(r.returncode >= 0, "numaperf %s died of signal %d\nstderr:\n%s"
              % (" ".join(args), -r.returncode, r.stderr))
        if expect is not None:
            check(r.returncode == expect, "numaperf %s: exit %d, expected %d\nstdout:\n%s\nstderr:\n%s"
                  % (" ".join(args), r.returncode, expect, r.stdout, r.stderr))
        return r

    def write_json(self, name, doc):
        with open(self.path(name), "w") as f:
            json.dump(doc, f, indent=1)
        return self.path(name)


def validate(files):
    r = subprocess.run([sys.executable, os.path.join(HERE, "schema_check.py"), SCHEMA, *files],
                       capture_output=True, text=True)
    check(r.returncode == 0, "schema validation failed:\n" + r.stdout + r.stderr)


def error_line(r):
    """The single `numaperf: ...` line of a failed run (stderr)."""
    lines = [l for l in r.stderr.splitlines() if l.startswith("numaperf: ") and "note:" not in l]
    check(len(lines) == 1, "expected one 'numaperf: ' error line, got:\n" + r.stderr)
    return lines[0]


# ---- a synthetic profile --------------------------------------------------------

def issue(kind, score, normalized, file="/src/app/a.c", line=10, function="main",
          obj_kind="heap", name=None, threshold=1500.0):
    return {"kind": kind, "score": score, "normalized_score": normalized, "threshold": threshold,
            "object": {"kind": obj_kind, "name": name, "size": 4096, "instances": 1,
                       "site": {"file": file, "line": line, "function": function}, "stack": []},
            "fix": "page_interleave", "evidence": {"remote_accesses": int(score * 10)}}


def profile(issues, access_data=True):
    return {"schema_version": 1,
            "program": {"command": ["./app"], "pid": 42, "wall_ms": 100.0, "threads": 4,
                        "total_accesses": 100000 if access_data else 0, "access_data": access_data},
            "thresholds": {"remote_access": 1500.0}, "notes": [], "issues": issues}


def base_profile():
    return profile([issue("remote_access", 30000.0, 800.0, line=23),
                    issue("remote_access", 2000.0, 50.0, obj_kind="global", name="counter",
                          file="/src/app/g.c", line=5, function=""),
                    issue("false_sharing", 5.0, 2.0, file="/src/app/b.c", line=7, function="work",
                          threshold=1.0)])


# ---- cases ------------------------------------------------------------------------

def case_help(e):
    r = e.np("--help", expect=0)
    for sub in ("run", "report", "check", "diff"):
        check(sub in r.stdout, "top-level help lacks " + sub)
        h = e.np(sub, "--help", expect=0)
        check("Usage:" in h.stdout and h.stderr == "", "%s --help:\n%s%s" % (sub, h.stdout, h.stderr))
    e.np("--version", expect=0)
    for bad in (["frobnicate"], [], ["report"], ["report", "--top", "x", "a.json"],
                ["report", "--format", "pdf", "a.json"], ["check", "x.json"],
                ["report", "--min-score", "nan", "a.json"], ["diff", "a.json"],
                ["check", "--baseline", "a.json", "b.json", "--metric", "speed"],
                ["run"], ["run", "--bogus", "/bin/true"], ["run", "--stack-depth", "0", "/bin/true"]):
        r = e.np(*bad, expect=2)
        check(r.stderr.startswith("numaperf: "), "usage error without 'numaperf: ': %r" % r.stderr)
        check(r.stdout == "", "usage error printed on stdout: %r" % r.stdout)


def case_roundtrip(e):
    """`numaperf report` of the JSON equals the text the program printed at exit."""
    outputs = []
    for source in ("remote_read.c", "global_remote.c", "private_only.c", "gt_false_sharing_heap.c"):
        if not os.path.exists(os.path.join(PROGRAMS, source)):
            continue
        name = os.path.splitext(source)[0]
        exe = e.compile(source, name)
        r = e.run_program(exe, {"NUMAPERF_REPORT": e.path(name + ".txt"),
                                "NUMAPERF_JSON": e.path(name + ".json")})
        check(os.path.exists(e.path(name + ".json")), "%s wrote no profile:\n%s" % (name, r.stderr))
        with open(e.path(name + ".txt"), "rb") as f:
            printed = f.read()
        rendered = e.np("report", e.path(name + ".json"), expect=0, text=False)
        check(rendered.stdout == printed,
              "%s: numaperf report differs from the exit-time text\n--- exit\n%s\n--- report\n%s"
              % (name, printed.decode(errors="replace"), rendered.stdout.decode(errors="replace")))
        check(b"\x1b[" not in rendered.stdout, "colour on a pipe")
        e.np("report", e.path(name + ".json"), "--output", e.path(name + ".out.txt"), expect=0)
        with open(e.path(name + ".out.txt"), "rb") as f:
            check(f.read() == printed, "%s: --output differs" % name)
        # --format json gives back the same profile.
        j = e.np("report", "--format", "json", e.path(name + ".json"), expect=0)
        with open(e.path(name + ".json")) as f:
            check(json.loads(j.stdout) == json.load(f), "%s: --format json changed the profile" % name)
        e.write_json(name + ".again.json", json.loads(j.stdout))
        outputs += [e.path(name + ".json"), e.path(name + ".again.json")]
    # Forced colour is ANSI; --top limits the issues shown.
    c = e.np("report", "--color", "always", e.path("remote_read.json"), expect=0)
    check("\x1b[" in c.stdout, "--color always without escape codes")
    t = e.np("report", "--top", "1", e.path("gt_false_sharing_heap.json"), expect=0)
    check(len(re.findall(r"^#\d+ ", t.stdout, re.M)) <= 1, "--top 1 shows more than one issue")
    m = e.np("report", "--min-score", "1e300", e.path("remote_read.json"), expect=0)
    check(not re.search(r"^#1 ", m.stdout, re.M) and "--min-score" in m.stdout,
          "--min-score did not hide issues:\n" + m.stdout)
    # The same through `numaperf run`.
    r = e.np("run", "--report", e.path("run.txt"), "--json", e.path("run.json"), "--",
             e.path("remote_read"), expect=0)
    check("preloading" not in r.stderr, "instrumented program was preloaded:\n" + r.stderr)
    with open(e.path("run.txt"), "rb") as f:
        printed = f.read()
    check(b"remote access" in printed, "run: report lacks the issue")
    check(e.np("report", e.path("run.json"), expect=0, text=False).stdout == printed,
          "run: report differs from the exit-time text")
    outputs.append(e.path("run.json"))
    validate(outputs)


def case_check(e):
    base = e.write_json("base.json", base_profile())
    same = e.write_json("same.json", base_profile())

    # No change: exit 0.
    r = e.np("check", "--baseline", base, same, expect=0)
    check("OK: 0 regressed, 0 new" in r.stdout and "3 unchanged" in r.stdout, r.stdout)

    # Different order, addresses, directories: still matched.
    moved = base_profile()
    moved["issues"].reverse()
    for i in moved["issues"]:
        i["object"]["site"]["file"] = i["object"]["site"]["file"].replace("/src/", "/builds/ci/")
        i["object"]["stack"] = [{"pc": 123456, "module": "/x", "offset": 1, "file": "", "line": 0,
                                 "function": ""}]
    e.np("check", "--baseline", base, e.write_json("moved.json", moved), expect=0)

    # Worse beyond tolerance: exit 1, listed as regressed with the site.
    worse = base_profile()
    worse["issues"][0]["normalized_score"] = 1000.0   # +25% > 10%
    worse = e.write_json("worse.json", worse)
    r = e.np("check", "--baseline", base, worse, expect=1)
    check("regressed (1):" in r.stdout and "/src/app/a.c:23" in r.stdout and "FAIL" in r.stdout,
          "regression not listed:\n" + r.stdout)
    # ... within a wider tolerance (relative or absolute, per kind): exit 0.
    e.np("check", "--baseline", base, worse, "--tolerance", "30%", expect=0)
    e.np("check", "--baseline", base, worse, "--tolerance", "0.3", expect=0)
    e.np("check", "--baseline", base, worse, "--abs-tolerance", "250", expect=0)
    e.np("check", "--baseline", base, worse, "--kind-tolerance", "remote_access=0.5", expect=0)
    e.np("check", "--baseline", base, worse, "--kind-tolerance", "false_sharing=0.5", expect=1)
    e.np("check", "--baseline", base, worse, "--kind-tolerance", "remote_access=0:300", expect=0)
    # The per-ms score did not change: --metric score passes.
    e.np("check", "--baseline", base, worse, "--metric", "score", expect=0)
    slower = base_profile()
    slower["issues"][1]["score"] = 5000.0
    slower = e.write_json("slower.json", slower)
    e.np("check", "--baseline", base, slower, expect=0)
    e.np("check", "--baseline", base, slower, "--metric", "score", expect=1)

    # Better: exit 0, listed as improved.
    better = base_profile()
    better["issues"][0]["normalized_score"] = 100.0
    r = e.np("check", "--baseline", base, e.write_json("better.json", better), expect=0)
    check("improved (1):" in r.stdout, r.stdout)

    # Fixed (gone): exit 0, listed.
    fixed = base_profile()
    del fixed["issues"][2]
    r = e.np("check", "--baseline", base, e.write_json("fixed.json", fixed), expect=0)
    check("fixed (1):" in r.stdout and "b.c:7" in r.stdout, r.stdout)

    # New issue: exit 1 (unless --allow-new).
    new = base_profile()
    new["issues"].append(issue("remote_access", 1600.0, 10.0, file="/src/app/c.c", line=99))
    new = e.write_json("new.json", new)
    r = e.np("check", "--baseline", base, new, expect=1)
    check("new (1):" in r.stdout and "c.c:99" in r.stdout, r.stdout)
    e.np("check", "--baseline", base, new, "--allow-new", expect=0)

    # A line moved (edited source) is still the same site when unambiguous.
    edited = base_profile()
    edited["issues"][0]["object"]["site"]["line"] = 25
    r = e.np("check", "--baseline", base, e.write_json("edited.json", edited), expect=0)
    check("3 unchanged" in r.stdout, r.stdout)

    # Unusable input: exit 2 with the reason.
    with open(e.path("trunc.json"), "w") as f:
        f.write(json.dumps(base_profile())[:200])
    v2 = base_profile()
    v2["schema_version"] = 2
    v2 = e.write_json("v2.json", v2)
    for args, reason in (([base, e.path("trunc.json")], "invalid JSON"),
                         ([e.path("trunc.json"), base], "invalid JSON"),
                         ([base, v2], "unsupported version 2"),
                         ([base, e.path("missing.json")], "No such file"),
                         ([e.path("missing.json"), base], "No such file"),
                         ([base, base, "--tolerance", "-5%"], "--tolerance"),
                         ([base, base, "--kind-tolerance", "remote_access"], "--kind-tolerance")):
        r = e.np("check", "--baseline", *args, expect=2)
        check(reason in error_line(r), "expected %r in:\n%s" % (reason, r.stderr))
    noacc = e.write_json("noacc.json", profile([], access_data=False))
    r = e.np("check", "--baseline", noacc, base, expect=2)
    check("no access data" in error_line(r), r.stderr)
    e.np("check", "--baseline", noacc, noacc, "--metric", "score", expect=0)


def case_diff(e):
    base = e.write_json("a.json", base_profile())
    b = base_profile()
    b["issues"][0]["score"] = 45000.0
    del b["issues"][1]
    b["issues"].append(issue("remote_access", 1600.0, 10.0, file="/src/app/c.c", line=99))
    b = e.write_json("b.json", b)
    r = e.np("diff", base, b, expect=0)
    for text in ("30000.0", "45000.0", "+50.0%", "only in A", "only in B", "counter", "c.c:99"):
        check(text in r.stdout, "diff lacks %r:\n%s" % (text, r.stdout))
    check(max(len(l) for l in r.stdout.splitlines()[3:]) <= 100, "diff wider than 100 columns")
    e.np("diff", base, e.path("nope.json"), expect=2)


def case_bad_input(e):
    """Every subcommand that reads a profile: one `numaperf:` line and exit 2."""
    good = base_profile()
    files = {}
    files["missing"] = e.path("does-not-exist.json")
    os.mkdir(e.path("a-directory"))
    files["directory"] = e.path("a-directory")
    with open(e.path("unreadable.json"), "w") as f:
        json.dump(good, f)
    os.chmod(e.path("unreadable.json"), 0)
    if os.geteuid() != 0:  # root reads anything
        files["unreadable"] = e.path("unreadable.json")
    text = json.dumps(good)
    for name, content in (("empty", ""), ("truncated", text[: len(text) // 2]),
                          ("garbage", "\x00\x01not json at all"), ("array", "[1, 2, 3]"),
                          ("deep", "[" * 100000 + "]" * 100000), ("bad_utf8", '{"a": "\xff"}')):
        with open(e.path(name + ".json"), "w", encoding="latin-1") as f:
            f.write(content)
        files[name] = e.path(name + ".json")
    bad_docs = {}
    d = copy.deepcopy(good); d["issues"][0]["score"] = "high"; bad_docs["wrong_type_score"] = d
    d = copy.deepcopy(good); d["issues"] = {"0": 1}; bad_docs["wrong_type_issues"] = d
    d = copy.deepcopy(good); d["program"]["threads"] = -3; bad_docs["negative"] = d
    d = copy.deepcopy(good); d["issues"][0]["object"]["site"]["line"] = 1e30; bad_docs["huge_line"] = d
    d = copy.deepcopy(good); d["schema_version"] = 2; bad_docs["schema_v2"] = d
    d = copy.deepcopy(good); d["schema_version"] = "1"; bad_docs["schema_string"] = d
    d = copy.deepcopy(good); del d["program"]; bad_docs["no_program"] = d
    for name, doc in bad_docs.items():
        files[name] = e.write_json(name + ".json", doc)
    # 100 MB: a sparse file (size check) and the same amount through a pipe.
    with open(e.path("huge.json"), "w") as f:
        f.truncate(100 * 1024 * 1024)
    files["huge"] = e.path("huge.json")
    ok = e.write_json("ok.json", good)

    commands = [lambda p: ["report", p], lambda p: ["report", "--format", "html", p],
                lambda p: ["report", "--format", "json", p],
                lambda p: ["check", "--baseline", ok, p], lambda p: ["check", "--baseline", p, ok],
                lambda p: ["diff", p, ok], lambda p: ["diff", ok, p]]
    for name, path in files.items():
        for make in commands:
            args = make(path)
            r = e.np(*args, expect=2)
            line = error_line(r)
            check(len(line) < 400, "error line too long: %s" % line)
            check(r.stdout == "", "output despite the error for %s: %r" % (name, r.stdout[:200]))
    huge = "[" + "0," * (60 * 1024 * 1024) + "0]"
    r = e.np("report", "-", stdin=huge, expect=2)
    check("larger than" in error_line(r), r.stderr)

    # Unknown fields: ignored with a note, exit 0, same text as without them.
    extra = copy.deepcopy(good)
    extra["colour"] = "red"
    extra["program"]["hostname"] = "x"
    extra["issues"][0]["object"]["site"]["column"] = 4
    extra["issues"][0]["evidence"]["new_fact"] = 1  # evidence is free-form
    r = e.np("report", e.write_json("extra.json", extra), expect=0)
    notes = [l for l in r.stderr.splitlines() if l.startswith("numaperf: note:")]
    check(len(notes) == 1 and "colour" in notes[0] and "program.hostname" in notes[0] and
          "issues[0].object.site.column" in notes[0] and "new_fact" not in notes[0],
          "expected one note naming the unknown fields:\n" + r.stderr)
    plain = e.np("report", ok, expect=0)
    check(plain.stderr == "", "note for a profile without unknown fields: " + plain.stderr)
    e.np("check", "--baseline", ok, e.path("extra.json"), expect=0)

    # Writing the output where it cannot go.
    r = e.np("report", ok, "--output", e.path("no/such/dir/out.txt"), expect=2)
    check("cannot write" in error_line(r), r.stderr)


def case_run(e):
    exe = e.compile("remote_read.c", "remote_read")
    # The program's exit status is passed through; a signal gives 128+N.
    e.np("run", "--report", "none", "--json", "none", "--", "/bin/sh", "-c", "exit 3", expect=3)
    e.np("run", "--preload", "never", "--", "/bin/sh", "-c", "kill -USR1 $$",
         expect=128 + signal.SIGUSR1)
    e.np("run", "--", e.path("no-such-program"), expect=127)
    e.np("run", "--remote-threshold", "lots", "--", exe, expect=2)
    # Thresholds and output locations become the runtime's settings.
    e.np("run", "--output-dir", e.path("out/deeper"), "--report", e.path("r.txt"),
         "--remote-threshold", "1e12", "--", exe, expect=0)
    found = [f for f in os.listdir(e.path("out/deeper")) if f.startswith("numaperf-remote_read-")]
    check(len(found) == 1, "no profile in --output-dir: %s" % os.listdir(e.path("out/deeper")))
    with open(e.path("out/deeper/" + found[0])) as f:
        p = json.load(f)
    check(p["thresholds"]["remote_access"] == 1e12, "--remote-threshold not applied")
    check(not [i for i in p["issues"] if i["kind"] == "remote_access"],
          "remote issue above a 1e12 threshold")
    # An uninstrumented program is preloaded and its report says it has no access data.
    plain = e.path("plain")
    r = subprocess.run(["cc", "-O1", "-pthread", os.path.join(PROGRAMS, "remote_read.c"), "-o", plain],
                       capture_output=True, text=True)
    check(r.returncode == 0, "cc failed: " + r.stderr)
    r = e.np("run", "--json", e.path("plain.json"), "--report", e.path("plain.txt"), "--html",
             e.path("plain.html"), "--", plain, expect=0)
    check("preloading the runtime" in r.stderr, "no note about preloading:\n" + r.stderr)
    with open(e.path("plain.json")) as f:
        p = json.load(f)
    check(p["program"]["access_data"] is False and p["program"]["threads"] >= 4,
          "preloaded run: %s" % p["program"])
    with open(e.path("plain.txt")) as f:
        txt = f.read()
    check("no instrumented code ran" in txt or "numaperf-clang" in txt,
          "report does not say that access data is missing:\n" + txt)
    with open(e.path("plain.html")) as f:
        check("<!DOCTYPE html>" in f.read(), "--html wrote no page")
    validate([e.path("plain.json"), e.path("out/deeper/" + found[0])])


def case_schema(e):
    """Every profile the test programs produce validates against docs/schema."""
    files = []
    for source in sorted(os.listdir(PROGRAMS)):
        if not source.endswith(".c") or source == "abi_mismatch.c":
            continue
        name = os.path.splitext(source)[0]
        with open(os.path.join(PROGRAMS, source)) as f:
            text = f.read()
        extra = (["-fopenmp"] if "omp.h" in text else []) + (["-lnuma"] if "numa.h" in text else [])
        exe = e.compile(source, name, extra)
        r = e.run_program(exe, {"NUMAPERF_JSON": e.path(name + ".json"), "NUMAPERF_REPORT": "none"})
        check(os.path.exists(e.path(name + ".json")), "%s wrote no profile (exit %d):\n%s"
              % (name, r.returncode, r.stderr.decode(errors="replace")))
        files.append(e.path(name + ".json"))
    check(len(files) >= 3, "too few programs")
    files.append(e.write_json("synthetic.json", base_profile()))
    validate(files)
    # The schema rejects what the reader rejects.
    bad = base_profile()
    bad["issues"][0]["object"]["size"] = -1
    r = subprocess.run([sys.executable, os.path.join(HERE, "schema_check.py"), SCHEMA,
                        e.write_json("bad.json", bad)], capture_output=True, text=True)
    check(r.returncode == 1, "schema accepted a negative size")


class HtmlCollector:
    def __init__(self, html):
        from html.parser import HTMLParser

        class P(HTMLParser):
            def __init__(self):
                super().__init__()
                self.stack, self.ids, self.tags, self.errors, self.text = [], set(), [], [], []

            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if "id" in a:
                    self.ids.add(a["id"])
                for k, v in a.items():
                    if k in ("src", "href") and v and re.match(r"^(https?:)?//", v):
                        self.errors.append("external resource: %s=%s" % (k, v))
                self.tags.append((tag, a))
                if tag not in ("meta", "br", "hr", "img", "input", "link", "line", "rect", "col"):
                    self.stack.append(tag)

            def handle_startendtag(self, tag, attrs):
                self.tags.append((tag, dict(attrs)))

            def handle_endtag(self, tag):
                if tag in ("line", "rect") and (not self.stack or self.stack[-1] != tag):
                    return
                if not self.stack or self.stack[-1] != tag:
                    self.errors.append("unbalanced </%s> (open: %s)" % (tag, self.stack[-3:]))
                else:
                    self.stack.pop()

            def handle_data(self, data):
                self.text.append(data)

        self.p = P()
        self.p.feed(html)
        self.p.close()


def html_pages(e):
    """Profiles with and without page maps / shares, rendered to HTML."""
    exe = e.compile("remote_read.c", "remote_read")
    e.run_program(exe, {"NUMAPERF_JSON": e.path("rr.json"), "NUMAPERF_REPORT": "none"})
    p = base_profile()
    p["issues"][0]["object"]["site"]["function"] = "<script>alert(1)</script>"
    p["issues"][0]["evidence"]["pages"] = {"threads": [0, 1, 2], "counts": [[5, 0, 0], [0, 9, 1], [0, 0, 3]]}
    p["imbalance"] = {"types": [{"name": "reader", "threads": 3, "accesses": 900, "share": 0.9},
                                {"name": "main", "threads": 1, "accesses": 100, "share": 0.1}]}
    synthetic = e.write_json("synthetic.json", p)
    empty = e.write_json("empty.json", profile([]))
    pages = {}
    for name, src in (("real", e.path("rr.json")), ("synthetic", synthetic), ("empty", empty)):
        e.np("report", "--format", "html", src, "--output", e.path(name + ".html"), expect=0)
        with open(e.path(name + ".html")) as f:
            pages[name] = f.read()
    return pages


def case_html(e):
    pages = html_pages(e)
    for name, html in pages.items():
        c = HtmlCollector(html).p
        check(not c.errors, "%s.html: %s" % (name, c.errors[:5]))
        check(not c.stack or c.stack == ["html"] or c.stack == [], "%s.html: unclosed %s" % (name, c.stack))
        check({"summary", "issues"} <= c.ids, "%s.html: sections %s" % (name, c.ids))
    syn = pages["synthetic"]
    check("<script>alert(1)" not in syn and "&lt;script&gt;alert(1)" in syn, "function name not escaped")
    c = HtmlCollector(syn).p
    check({"chart", "imbalance"} <= c.ids, "synthetic.html lacks chart or imbalance: %s" % c.ids)
    check(sum(1 for t, a in c.tags if t == "article") == 3, "expected 3 issues")
    check(sum(1 for t, a in c.tags if t == "rect" and a.get("class") == "cell") == 9,
          "page map should have 3x3 cells")
    real = HtmlCollector(pages["real"]).p
    check("chart" in real.ids and any(a.get("class") == "pagemap" for t, a in real.tags),
          "real profile: no chart or page map")
    emp = HtmlCollector(pages["empty"]).p
    check("chart" not in emp.ids and "imbalance" not in emp.ids and
          not any(a.get("class") == "pagemap" for t, a in emp.tags),
          "empty profile draws charts without data")
    check("No NUMA issues" in pages["empty"], "empty profile: no 'No NUMA issues'")


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def dump_dom(browser, html_path):
    profile_dir = tempfile.mkdtemp(prefix="numaperf-chromium-")
    try:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--user-data-dir=" + profile_dir, "--dump-dom", "file://" + html_path]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
        check(r.returncode == 0 and "<html" in r.stdout,
              "chromium failed (%d):\n%s" % (r.returncode, r.stderr[-2000:]))
        return r.stdout
    finally:
        shutil.rmtree(profile_dir, ignore_errors=True)


def case_html_browser(e):
    browser = find_chromium()
    if browser is None:
        raise Skip("chromium is not installed (Debian package chromium)")
    html_pages(e)
    dom = dump_dom(browser, e.path("synthetic.html"))
    check('data-ready="1"' in dom, "the page's script did not run in the browser")
    check(dom.count('class="issue"') == 3, "browser DOM does not show 3 issues")
    check("&lt;script&gt;alert(1)&lt;/script&gt;" in dom, "escaped name not shown as text")
    check(dom.count('class="cell"') == 9, "page map cells missing in the browser DOM")
    check("reader" in dom and 'id="imbalance"' in dom, "thread-type shares missing")
    dom = dump_dom(browser, e.path("real.html"))
    check('data-ready="1"' in dom and "remote access" in dom and "remote_read.c" in dom,
          "real profile page incomplete in the browser")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("case")
    args = parser.parse_args()
    fn = globals().get("case_" + args.case)
    if fn is None:
        print("unknown case " + args.case)
        return 2
    work = tempfile.mkdtemp(prefix="numaperf-cli-%s-" % args.case)
    try:
        fn(Env(os.path.abspath(args.build_dir), work))
    except Skip as s:
        print("SKIP: " + str(s))
        return SKIP
    except Failure as f:
        print("FAIL: %s (work dir kept: %s)" % (f, work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
