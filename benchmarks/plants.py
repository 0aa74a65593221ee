"""Planted issues: the `// PLANTED: kind` markers in the workloads' sources,
and whether a profile's issue is one of them (benchmarks/run.py and
selective.py)."""

import os
import re

PLANT_RE = re.compile(r"//\s*PLANTED:\s*([A-Za-z_][A-Za-z_ ,]*)")
# A plant inside the workload's region (the region program, selective.py).
IN_REGION_RE = re.compile(r"//\s*PLANTED:.*\(in region\)")


def find_plants(src):
    """The plants of a source file: kind, file (base name), line, and
    in_region when the marker says "(in region)"."""
    plants = []
    with open(src, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            m = PLANT_RE.search(line)
            if m:
                for kind in re.split(r"[\s,]+", m.group(1).strip()):
                    if kind:
                        plants.append(dict(kind=kind, file=os.path.basename(src), line=lineno,
                                           in_region=bool(IN_REGION_RE.search(line))))
    return plants


def issue_matches(issue, plant):
    """Whether a profile's issue is the plant: same kind, and the plant's line
    is the object's site or a frame of its stack."""
    if issue.get("kind") != plant["kind"]:
        return False
    obj = issue.get("object") or {}
    frames = [obj.get("site") or {}] + list(obj.get("stack") or [])
    return any(os.path.basename(f.get("file") or "") == plant["file"] and f.get("line") == plant["line"]
               for f in frames if isinstance(f, dict))
