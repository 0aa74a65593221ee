"""Statistics over a benchmark's repeated runs, shared by the harness
(run.py) and its selective part (selective.py). A run is a dict with a
"status" ("ok" or what went wrong) and its measured times ("seconds", ...).
"""
import math
import statistics


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def paired_ratio(num_runs, den_runs, key="seconds"):
    """Median over repetitions of num / den, each repetition's two runs taken
    together (the harness runs them close in time): when the host's speed
    drifts between repetitions (vCPUs moved, a neighbour busy) both move and
    their ratio much less. None unless every run of both is ok."""
    if not num_runs or len(num_runs) != len(den_runs):
        return None
    if any(r["status"] != "ok" or not r.get(key) for r in num_runs + den_runs):
        return None
    return statistics.median(a[key] / b[key] for a, b in zip(num_runs, den_runs))


def spread(runs, key="seconds"):
    """Slowest over fastest of the ok runs: how far the host alone moved one
    build's time (None with fewer than two)."""
    xs = [r[key] for r in runs if r["status"] == "ok" and r.get(key)]
    return max(xs) / min(xs) if len(xs) > 1 else None
