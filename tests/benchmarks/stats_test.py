#!/usr/bin/env python3
"""Unit test of benchmarks/stats.py: statistics over repetitions: the paired
ratio and the spread that flags a noisy workload."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "benchmarks"))
import stats  # noqa: E402


def runs(*seconds, status="ok"):
    return [dict(status=status, seconds=s) for s in seconds]


class PairedRatioTest(unittest.TestCase):
    def test_drift_between_repetitions_cancels(self):
        # The host ran twice as fast in the second repetition: the medians
        # of each build mix the two states, the pairs do not.
        native = runs(1.0, 0.5, 1.0)
        numaperf = runs(3.0, 1.5, 3.0)
        self.assertAlmostEqual(stats.paired_ratio(numaperf, native), 3.0)

    def test_median_of_the_pairs(self):
        self.assertAlmostEqual(stats.paired_ratio(runs(2.0, 9.0, 3.0), runs(1.0, 1.0, 1.0)), 3.0)

    def test_a_failed_run_or_mismatched_counts_give_none(self):
        bad = runs(1.0) + runs(1.0, status="crashed")
        self.assertIsNone(stats.paired_ratio(bad, runs(1.0, 1.0)))
        self.assertIsNone(stats.paired_ratio(runs(1.0, 1.0), runs(1.0)))
        self.assertIsNone(stats.paired_ratio([], []))


class SpreadTest(unittest.TestCase):
    def test_slowest_over_fastest_of_ok_runs(self):
        self.assertAlmostEqual(stats.spread(runs(1.0, 1.6, 1.2) + runs(9.0, status="crashed")), 1.6)

    def test_one_run_has_no_spread(self):
        self.assertIsNone(stats.spread(runs(1.0)))


if __name__ == "__main__":
    unittest.main()
