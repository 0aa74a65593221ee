#!/usr/bin/env python3
"""bwmodel.placement.<case>: `numaperf placement` end to end, on a small
hand-made profile whose predictions are computed by hand below.
Usage: placement_cli_test.py NUMAPERF CASE TOPOLOGY_DIR"""
import json, os, subprocess, sys, tempfile

BIN, CASE, TOPO = sys.argv[1], sys.argv[2], sys.argv[3]
TWO = "pack:2 [numa] core:4 pu:1"
FOUR = "pack:4 [numa] core:2 pu:1"

OBJECT = {"kind": "heap", "name": None, "size": 1 << 20, "instances": 1,
          "site": {"file": "/src/t.c", "line": 10, "function": "main"}, "stack": []}
# Reads: 800 accesses, static 0.5 (thread 0), local 0.25, per-thread 0.25.
# Writes: 200, all local. One object, the table: 400 static reads.
PROFILE = {
    "schema_version": 1,
    "program": {"command": ["t"], "pid": 1, "wall_ms": 10, "threads": 5, "total_accesses": 1000,
                "access_data": True},
    "issues": [{"kind": "remote_access", "score": 5000, "threshold": 1500, "object": OBJECT,
                "fix": "page_interleave", "evidence": {}}],
    "bandwidth_signature": {
        "weighting": "accesses",
        "program": {
            "read": {"accesses": 800, "static": 0.5, "local": 0.25, "per_thread": 0.25,
                     "interleaved": 0, "static_thread": 0},
            "write": {"accesses": 200, "static": 0, "local": 1, "per_thread": 0,
                      "interleaved": 0, "static_thread": None},
            "static_threads": [{"thread": 0, "reads": 400, "writes": 0}]},
        "objects": [{"object": OBJECT,
                     "read": {"accesses": 400, "static": 1, "local": 0, "per_thread": 0,
                              "interleaved": 0, "static_thread": 0},
                     "write": {"accesses": 0, "static": 0, "local": 0, "per_thread": 0,
                               "interleaved": 0, "static_thread": None},
                     "static_threads": [{"thread": 0, "reads": 400, "writes": 0}]}],
        "objects_omitted": 0}}


def run(*args, rc=0):
    p = subprocess.run([BIN, "placement", *args], capture_output=True, text=True, timeout=50)
    if p.returncode != rc:
        sys.exit(f"{args}: exit {p.returncode}, wanted {rc}\nstdout: {p.stdout}\nstderr: {p.stderr}")
    return p


def error(args, needle):
    p = run(*args, rc=2)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("numaperf placement: error: "), p.stderr
    assert needle in lines[0], (needle, lines[0])
    assert p.stdout == "", p.stdout


def close(a, b):
    assert len(a) == len(b), (a, b)
    for x, y in zip(a, b):
        if isinstance(x, list):
            close(x, y)
        else:
            assert abs(x - y) < 1e-9, (a, b)


def shares(s):
    """Link shares as a matrix over the used CPU sockets' rows (others 0)."""
    n = len(s["nodes"])
    m = [[0.0] * n for _ in range(n)]
    for link in s["links"]:
        m[link["cpu_socket"]][link["memory_socket"]] = link["share"]
    return m


def write(doc, name="p.json"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))
    return path


tmp = tempfile.mkdtemp()
prof = write(PROFILE)
if CASE == "two_nodes":
    d = json.loads(run(prof, "--topology", TWO, "--threads-per-node", "3,1", "--json").stdout)
    assert d["format"] == "numaperf-placement" and d["threads"] == 4, d
    s = {x["name"]: x for x in d["scenarios"]}
    assert list(s) == ["given", "round-robin", "packed", "fix page_interleave heap t.c:10"], list(s)
    g = s["given"]
    assert g["placement"] == [3, 1]
    close(g["read"]["matrix"], [[0.9375, 0.0625], [0.6875, 0.3125]])
    close(g["write"]["matrix"], [[1, 0], [0, 1]])
    close(shares(g), [[0.7125, 0.0375], [0.1375, 0.1125]])
    close([n["share"] for n in g["nodes"]], [0.85, 0.15])
    close([g["remote_share"], g["read_share"]], [0.175, 0.8])
    rr = s["round-robin"]
    assert rr["placement"] == [2, 2] and rr["placement_order"] == "round_robin"
    close(shares(rr), [[0.45, 0.05], [0.25, 0.25]])
    assert s["packed"]["placement"] == [4, 0]
    close(shares(s["packed"]), [[1, 0], [0, 0]])
    f = s["fix page_interleave heap t.c:10"]
    assert f["kind"] == "fix" and f["fix"] == "page_interleave"
    close([f["read"]["signature"][k] for k in ("static", "local", "per_thread", "interleaved")],
          [0, 0.25, 0.25, 0.5])
    close(f["read"]["matrix"], [[0.6875, 0.3125], [0.4375, 0.5625]])
    close(shares(f), [[0.5625, 0.1875], [0.0875, 0.1625]])
    close([f["remote_share"]], [0.275])
elif CASE == "four_nodes":
    d = json.loads(run(prof, "--topology", "synthetic:" + FOUR, "--threads-per-node", "2,1,1,0",
                       "--json").stdout)
    s = {x["name"]: x for x in d["scenarios"]}
    g = s["given"]
    close(g["read"]["matrix"][:3], [[0.875, 0.0625, 0.0625, 0], [0.625, 0.3125, 0.0625, 0],
                                    [0.625, 0.0625, 0.3125, 0]])
    close(shares(g), [[0.45, 0.025, 0.025, 0], [0.125, 0.1125, 0.0125, 0],
                      [0.125, 0.0125, 0.1125, 0], [0, 0, 0, 0]])
    close([n["share"] for n in g["nodes"]], [0.7, 0.15, 0.15, 0])
    close([g["remote_share"]], [0.325])
    assert s["round-robin"]["placement"] == [1, 1, 1, 1], s["round-robin"]["placement"]
    assert s["packed"]["placement"] == [2, 2, 0, 0], s["packed"]["placement"]
elif CASE == "xml_and_host":
    # Nodes of 4 and 3 PUs: 5 threads pack as 4, 1 and deal out as 3, 2.
    d = json.loads(run(prof, "--topology", f"{TOPO}/two_nodes_uneven.xml", "--threads-per-node", "2,3",
                       "--json").stdout)
    assert [x["pus"] for x in d["topology"]["sockets"]] == [4, 3], d["topology"]
    got = {x["name"]: x["placement"] for x in d["scenarios"]}
    assert got["given"] == [2, 3] and got["round-robin"] == [3, 2] and got["packed"] == [4, 1], got
    error([prof, "--topology", f"{TOPO}/two_nodes_uneven.xml", "--threads-per-node", "2,4"], "PU")
    # This VM has one node (the bwmodel host test assumes so too): all local.
    d = json.loads(run(prof, "--topology", "host", "--threads-per-node", "1", "--json").stdout)
    for x in d["scenarios"]:
        assert x["placement"] == [1] and x["remote_share"] == 0 and x["nodes"][0]["share"] == 1, x
elif CASE == "text":
    out = run(prof, "--topology", TWO, "--threads-per-node", "3,1").stdout
    for needle in ("given: placement 3, 1", "round-robin: placement 2, 2", "packed: placement 4, 0",
                   "fix page_interleave heap t.c:10", "0.450  0.050", "remote 0.175"):
        assert needle in out, (needle, out)
elif CASE == "load":
    cal = write({"format": "numaperf-calibration", "version": 1, "cpu_nodes": [0, 1], "memory_nodes": [0, 1],
                 "latency_ns": {"idle": [[80, 130], [130, 80]]},
                 "bandwidth_gbps": {"read": [[10, 5], [5, 10]], "write": [[10, 5], [5, 10]], "mixed": None}},
                "cal.json")
    d = json.loads(run(prof, "--topology", TWO, "--threads-per-node", "3,1", "--thread-bandwidth", "4",
                       "--calibration", cal, "--json").stdout)
    g = d["scenarios"][0]
    # 3 threads on socket 0, 4 GB/s each, 0.8 reads: read 3*3.2*0.9375 = 9 GB/s to bank 0.
    link = [l for l in g["load"]["links"] if l["cpu_socket"] == 0 and l["memory_socket"] == 0][0]
    close([link["read_gbps"], link["write_gbps"]], [9.0, 2.4])
    assert link["saturated"], link
    error([prof, "--topology", TWO, "--threads-per-node", "3,1", "--calibration", cal], "--thread-bandwidth")
elif CASE == "bad_input":
    error([os.path.join(tmp, "missing.json"), "--topology", TWO, "--threads-per-node", "3,1"], "missing.json")
    error([write("{not json", "bad.json"), "--topology", TWO, "--threads-per-node", "3,1"], "bad.json")
    old = dict(PROFILE)
    del old["bandwidth_signature"]
    error([write(old, "old.json"), "--topology", TWO, "--threads-per-node", "3,1"], "no bandwidth_signature")
    wrong = json.loads(json.dumps(PROFILE))
    wrong["bandwidth_signature"]["program"]["read"]["local"] = "lots"
    error([write(wrong, "wrong.json"), "--topology", TWO, "--threads-per-node", "3,1"], "local")
    bad_sum = json.loads(json.dumps(PROFILE))
    bad_sum["bandwidth_signature"]["program"]["write"]["local"] = 0.5
    error([write(bad_sum, "sum.json"), "--topology", TWO, "--threads-per-node", "3,1"], "sum to 0.5")
    error([prof, "--topology", "pack:two", "--threads-per-node", "3,1"], "topology")
    error([prof, "--topology", os.path.join(tmp, "nope.xml"), "--threads-per-node", "3,1"], "nope.xml")
    error([prof, "--topology", TWO, "--threads-per-node", "3,x"], "3,x")
    error([prof, "--topology", TWO, "--threads-per-node", "3,1,1"], "socket")
    error([prof, "--topology", TWO, "--threads-per-node", "5,0"], "PU")
    error([prof, "--topology", TWO, "--threads-per-node", "0,0"], "thread")
else:
    sys.exit("unknown case " + CASE)
print("ok")
