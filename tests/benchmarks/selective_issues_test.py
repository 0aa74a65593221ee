#!/usr/bin/env python3
"""Unit test of benchmarks/selective.py's issue bookkeeping: which issues a
filtered build is asked to keep."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "benchmarks"))
import selective  # noqa: E402


def profile(*issues):
    return {"issues": [{"kind": k, "object": {"site": {"file": "/src/" + f, "line": l}}}
                       for k, f, l in issues]}


class StableIssuesTest(unittest.TestCase):
    def test_an_issue_only_some_runs_report_is_borderline(self):
        a = selective._issue_keys(profile(("remote_access", "m.c", 45),
                                          ("remote_access", "m.c", 46)))
        b = selective._issue_keys(profile(("remote_access", "m.c", 45)))
        stable, borderline = selective.stable_issues([a, b])
        self.assertEqual(stable, {("remote_access", "m.c:45")})
        self.assertEqual(borderline, {("remote_access", "m.c:46")})

    def test_issues_every_run_reports_are_stable(self):
        a = selective._issue_keys(profile(("false_sharing", "h.c", 18), ("true_sharing", "h.c", 52)))
        stable, borderline = selective.stable_issues([a, set(a), set(a)])
        self.assertEqual(stable, a)
        self.assertEqual(borderline, set())

    def test_no_runs_no_issues(self):
        self.assertEqual(selective.stable_issues([]), (set(), set()))


if __name__ == "__main__":
    unittest.main()
