#!/usr/bin/env python3
"""Unit test of benchmarks/plants.py: reading `// PLANTED:` markers (with the
region program's "(in region)") and matching a profile's issue to one."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "benchmarks"))
from plants import find_plants, issue_matches  # noqa: E402

SOURCE = """int main(void) {
  double *a = malloc(n);  // PLANTED: remote_access (in region)
  double *b = malloc(n);  // PLANTED: remote_access
  long *c = calloc(n, 8);  // PLANTED: false_sharing, true_sharing
  return 0;  // not planted
}
"""


class FindPlantsTest(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".c")
        with os.fdopen(fd, "w") as f:
            f.write(SOURCE)
        self.name = os.path.basename(self.path)

    def tearDown(self):
        os.unlink(self.path)

    def test_kinds_lines_and_regions(self):
        got = [(p["kind"], p["line"], p["in_region"]) for p in find_plants(self.path)]
        self.assertEqual(got, [("remote_access", 2, True), ("remote_access", 3, False),
                               ("false_sharing", 4, False), ("true_sharing", 4, False)])
        self.assertTrue(all(p["file"] == self.name for p in find_plants(self.path)))

    def test_an_issue_matches_by_kind_and_site_or_stack_line(self):
        plant = find_plants(self.path)[0]
        at = lambda line: {"file": "/x/" + self.name, "line": line}  # noqa: E731
        self.assertTrue(issue_matches({"kind": "remote_access", "object": {"site": at(2)}}, plant))
        self.assertTrue(issue_matches({"kind": "remote_access",
                                       "object": {"site": at(9), "stack": [at(7), at(2)]}}, plant))
        self.assertFalse(issue_matches({"kind": "remote_access", "object": {"site": at(3)}}, plant))
        self.assertFalse(issue_matches({"kind": "false_sharing", "object": {"site": at(2)}}, plant))
        self.assertFalse(issue_matches({"kind": "remote_access",
                                        "object": {"site": {"file": "/x/other.c", "line": 2}}},
                                       plant))
        self.assertFalse(issue_matches({"kind": "remote_access"}, plant))


if __name__ == "__main__":
    unittest.main()
