#!/usr/bin/env python3
"""bwmodel.cli.<case>: the numaperf-bwmodel driver end to end.
Usage: bwmodel_cli_test.py BINARY CASE TOPOLOGY_DIR"""
import json, os, subprocess, sys, tempfile

BIN, CASE, TOPO = sys.argv[1], sys.argv[2], sys.argv[3]
WORKED = ["--static-socket", "1", "--static", "0.2", "--local", "0.35", "--per-thread", "0.3"]
SYN = 'synthetic:pack:2 [numa] core:4 pu:1'


def run(*args, rc=0):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=50)
    if p.returncode != rc:
        sys.exit(f"{args}: exit {p.returncode}, wanted {rc}\nstdout: {p.stdout}\nstderr: {p.stderr}")
    return p


def error(args, needle):
    p = run(*args, rc=2)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("numaperf bwmodel: error: "), p.stderr
    assert needle in lines[0], (needle, lines[0])


def close(a, b):
    return all(abs(x - y) < 1e-9 for x, y in zip(sum(a, []), sum(b, [])))


def calibration(path, local, remote, rows=(0, 1)):
    n = len(rows)
    m = [[local if i == j else remote for j in range(n)] for i in range(n)]
    doc = {"format": "numaperf-calibration", "version": 1, "cpu_nodes": list(rows), "memory_nodes": list(rows),
           "latency_ns": {"idle": [[80 if i == j else 130 for j in range(n)] for i in range(n)]},
           "bandwidth_gbps": {"read": m, "write": m, "mixed": None}}
    with open(path, "w") as f:
        json.dump(doc, f)


tmp = tempfile.mkdtemp()
if CASE == "worked_example":
    d = json.loads(run(*WORKED, "--placement", "3,1", "--json").stdout)
    assert d["matrix"] == [[0.65, 0.35], [0.3, 0.7]], d["matrix"]
    assert d["read"]["signature"]["interleaved"] == 0.15
    assert d["topology"]["source"] == "abstract"
    # with the subcommand word too
    d2 = json.loads(run("bwmodel", *WORKED, "--placement", "3,1", "--json").stdout)
    assert d2["matrix"] == d["matrix"]
elif CASE == "text_output":
    out = run(*WORKED, "--placement", "3,1").stdout
    assert "0.650  0.350" in out and "0.300  0.700" in out, out
    assert "interleaved 0.150" in out
elif CASE == "read_write":
    d = json.loads(run("--read-local", "1", "--write-static", "1", "--write-static-socket", "0",
                       "--placement", "3,1", "--json").stdout)
    assert d["matrix"] is None
    assert d["read"]["matrix"] == [[1, 0], [0, 1]], d["read"]
    assert d["write"]["matrix"] == [[1, 0], [1, 0]], d["write"]
    # common options apply to both; specific ones override
    d = json.loads(run(*WORKED, "--write-local", "0.5", "--placement", "3,1", "--json").stdout)
    assert d["read"]["matrix"] == [[0.65, 0.35], [0.3, 0.7]]
    assert d["write"]["signature"]["local"] == 0.5 and d["write"]["signature"]["static"] == 0.2
    error(["--read-local", "0.9", "--static", "0.2", "--placement", "3,1"], "read fractions")
elif CASE == "synthetic_topology":
    d = json.loads(run(*WORKED, "--placement", "3,1", "--topology", SYN, "--json").stdout)
    assert d["matrix"] == [[0.65, 0.35], [0.3, 0.7]]
    assert [s["pus"] for s in d["topology"]["sockets"]] == [4, 4]
    d = json.loads(run("--local", "1", "--placement", "1,0,0,3", "--topology", "synthetic:pack:4 [numa] core:4 pu:1",
                       "--json").stdout)
    assert d["matrix"][3] == [0, 0, 0, 1]
elif CASE == "xml_topology":
    d = json.loads(run("--placement", "2,2", "--topology", f"xml:{TOPO}/two_nodes_uneven.xml", "--json").stdout)
    assert len(d["topology"]["sockets"]) == 2
    assert d["matrix"] == [[0.5, 0.5], [0.5, 0.5]]
elif CASE == "host_topology":
    # This VM has one node: one socket is fine, two are not.
    d = json.loads(run(*WORKED[2:], "--placement", "1", "--topology", "host", "--json").stdout)
    assert d["matrix"] == [[1]]
elif CASE == "bad_placement":
    error(["--placement", "3,1", "--topology", "synthetic:pack:1 [numa] core:4 pu:1"], "placement names 2 sockets")
    error(["--placement", "5,1", "--topology", SYN], "only 4 PUs")
    error(["--placement", "0,0"], "no threads")
    error(["--placement", "3,x"], "bad placement")
    error(["--local", "0.5"], "--placement is required")
elif CASE == "bad_fractions":
    error(["--static", "1.2", "--placement", "3,1"], "outside [0, 1]")
    error(["--local", "-0.1", "--placement", "3,1"], "outside [0, 1]")
    error(["--static", "0.5", "--local", "0.6", "--placement", "3,1"], "more than 1")
    error(["--static", "0.25", "--local", "0.25", "--per-thread", "0.25", "--interleaved", "0.2",
           "--placement", "3,1"], "not 1")
    run("--static", "0.25", "--local", "0.25", "--per-thread", "0.25", "--interleaved", "0.25", "--placement", "3,1")
    error([*WORKED[:1], "2", *WORKED[2:], "--placement", "3,1"], "static socket 2 does not exist")
    p = subprocess.run([BIN, "--static", "abc", "--placement", "3,1"], capture_output=True, text=True)
    assert p.returncode != 0
elif CASE == "bad_topology":
    error(["--placement", "1", "--topology", "nonsense"], "bad topology")
    error(["--placement", "1", "--topology", "xml:/nonexistent.xml"], "topology")
    error(["--placement", "1", "--topology", "synthetic:pack:x"], "topology")
elif CASE == "load":
    d = json.loads(run(*WORKED, "--placement", "3,1", "--thread-bandwidth", "10", "--json").stdout)
    loads = {(l["cpu_socket"], l["memory_socket"]): l["total_gbps"] for l in d["load"]["links"]}
    assert loads == {(0, 0): 19.5, (0, 1): 10.5, (1, 0): 3.0, (1, 1): 7.0}, loads
    assert [b["total_gbps"] for b in d["load"]["banks"]] == [22.5, 17.5]
    d = json.loads(run(*WORKED, "--placement", "3,1", "--thread-bandwidth", "10", "--write-share", "0.25",
                       "--json").stdout)
    assert d["load"]["thread_read_gbps"] == 7.5 and d["load"]["thread_write_gbps"] == 2.5
elif CASE == "calibration_saturation":
    cal = os.path.join(tmp, "cal.json")
    calibration(cal, 40, 10)
    d = json.loads(run(*WORKED, "--placement", "3,1", "--thread-bandwidth", "10", "--calibration", cal,
                       "--json").stdout)
    assert d["load"]["saturated_links"] == [[0, 1]], d["load"]["saturated_links"]
    out = run(*WORKED, "--placement", "3,1", "--thread-bandwidth", "10", "--calibration", cal).stdout
    assert "SATURATED" in out, out
    d = json.loads(run(*WORKED, "--placement", "3,1", "--thread-bandwidth", "1", "--calibration", cal,
                       "--json").stdout)
    assert d["load"]["saturated_links"] == []
elif CASE == "bad_calibration":
    cal = os.path.join(tmp, "cal.json")
    calibration(cal, 40, 10, rows=(0,))
    error([*WORKED, "--placement", "3,1", "--thread-bandwidth", "10", "--calibration", cal], "no bandwidth for node 1")
    error([*WORKED, "--placement", "3,1", "--calibration", cal], "needs --thread-bandwidth")
    with open(os.path.join(tmp, "bad.json"), "w") as f:
        f.write("{")
    error([*WORKED, "--placement", "3,1", "--thread-bandwidth", "1", "--calibration", os.path.join(tmp, "bad.json")],
          "calibration file")
elif CASE == "fit":
    # Readings generated by hand from the worked example: threads(i) * 10 * M[i][j]
    # Run 2, 1 thread on socket 0: 10*[.35+.3*.25+.075, .2+.3*.75+.075];
    # 3 on socket 1: 30*[.3*.25+.075, .2+.35+.3*.75+.075]. Writes: all local.
    r = {"runs": [{"placement": [3, 1], "read": [[19.5, 10.5], [3.0, 7.0]], "write": [[30, 0], [0, 10]]},
                  {"placement": [1, 3], "read": [[5.0, 5.0], [4.5, 25.5]], "write": [[10, 0], [0, 30]]}]}
    path = os.path.join(tmp, "readings.json")
    with open(path, "w") as f:
        json.dump(r, f)
    d = json.loads(run("--fit", path, "--json").stdout)
    s = d["read"]["signature"]
    assert (s["static"], s["local"], s["per_thread"], s["interleaved"], s["static_socket"]) == (0.2, 0.35, 0.3, 0.15, 1), s
    assert d["read"]["residual"] < 1e-9 and d["write"]["signature"]["local"] == 1
    d = json.loads(run("--fit", path, "--placement", "3,1", "--json").stdout)
    assert d["read"]["matrix"] == [[0.65, 0.35], [0.3, 0.7]]
    error(["--fit", path, "--local", "1", "--placement", "3,1"], "do not give fractions")
    error(["--fit", os.path.join(tmp, "missing.json")], "cannot read")
elif CASE == "measure":
    p = run("--measure", rc=2)
    assert len(p.stderr.strip().splitlines()) == 1
    if not any(n.startswith(("uncore_imc", "amd_df", "arm_cmn")) for n in
               (os.listdir("/sys/bus/event_source/devices") if os.path.isdir("/sys/bus/event_source/devices") else [])):
        assert "counters are unavailable on this host" in p.stderr, p.stderr
else:
    sys.exit(f"unknown case {CASE}")
print("ok", CASE)
