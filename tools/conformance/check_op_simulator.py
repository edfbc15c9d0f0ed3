#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks an op simulator directory (NPUSIM_OP_SIMULATOR_DIR, docs/outputs.md) without a browser.

  check_op_simulator.py DIR [--stats STATS_JSON] [--summary]

trace.json must parse as a Chrome trace: every slice ("X") with name, pid, tid, ts, dur >= 0 and
args kernel/block/instr/cycles/call/code; every pid named (process_name) and every (pid, tid)
named (thread_name, one of msopprof's pipes); every flow start ("s") with exactly one end ("f")
of the same id and category, not earlier than the start. Per unit directory (core*.*core*):
<unit>_code_exe.csv and <unit>_instr_exe.csv with msopprof's columns whose call_count columns
each add up to the unit's slices, and its own trace.json with exactly the unit's slices.
--stats: the slices' durations per core and pipe (VECTOR, CUBE, MTE1-3, FIXP) equal that core's
<pipe>_busy_cycles in the run's stats.json (core named by trace.json's process_labels, "AIV 1"
-> cores.aiv1), within a cycle per slice. --summary prints counts as JSON (slices per pipe,
flows per category, code lines). Exit 0: all good; 1: a problem (printed); 2: usage.
"""
import csv
import json
import os
import sys

PIPES = {"SCALAR", "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP"}
STAT_PIPES = {"VECTOR": "vector", "CUBE": "cube", "MTE1": "mte1", "MTE2": "mte2", "MTE3": "mte3",
              "FIXP": "fixpipe"}
CODE_COLUMNS = ["code", "call_count", "cycles", "running_time(us)"]
INSTR_COLUMNS = ["instr", "addr", "pipe", "call_count", "cycles", "running_time(us)", "detail"]


class Problem(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Problem(what)


def load_trace(path):
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        raise Problem("%s: %s" % (path, e))
    need(isinstance(d, dict) and isinstance(d.get("traceEvents"), list),
         "%s: no traceEvents list" % path)
    return d


def check_trace(path):
    """Checks one trace.json; returns (slices, process names by pid, labels by pid, flows)."""
    d = load_trace(path)
    names, labels, threads, slices, starts, ends = {}, {}, {}, [], {}, {}
    for e in d["traceEvents"]:
        ph = e.get("ph")
        if ph == "M":
            if e.get("name") == "process_name":
                names[e["pid"]] = e["args"]["name"]
            elif e.get("name") == "process_labels":
                labels[e["pid"]] = e["args"]["labels"]
            elif e.get("name") == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif ph == "X":
            for k in ("name", "pid", "tid", "ts", "dur", "args"):
                need(k in e, "%s: a slice without %s: %s" % (path, k, e))
            need(e["dur"] >= 0, "%s: negative duration: %s" % (path, e))
            for k in ("kernel", "block", "instr", "cycles", "call", "code"):
                need(k in e["args"], "%s: a slice without args.%s: %s" % (path, k, e))
            slices.append(e)
        elif ph == "s":
            need(e["id"] not in starts, "%s: flow id %s starts twice" % (path, e["id"]))
            starts[e["id"]] = e
        elif ph == "f":
            need(e["id"] not in ends, "%s: flow id %s ends twice" % (path, e["id"]))
            ends[e["id"]] = e
    for s in slices:
        need(s["pid"] in names, "%s: pid %s has no process_name" % (path, s["pid"]))
        t = threads.get((s["pid"], s["tid"]))
        need(t in PIPES, "%s: track (%s, %s) is not a pipe: %s" % (path, s["pid"], s["tid"], t))
    need(set(starts) == set(ends), "%s: flows without both ends: %s" %
         (path, sorted(set(starts) ^ set(ends))))
    flows = {}
    for i, s in starts.items():
        f = ends[i]
        need(s["cat"] == f["cat"] and s["name"] == f["name"], "%s: flow %s ends differ" % (path, i))
        need(f["ts"] >= s["ts"], "%s: flow %s ends before it starts" % (path, i))
        flows[s["cat"]] = flows.get(s["cat"], 0) + 1
    other = d.get("otherData", {})
    need(other.get("instructions") == len(slices) or path.count(os.sep + "core") > 0,
         "%s: otherData.instructions %s != %d slices" % (path, other.get("instructions"),
                                                         len(slices)))
    return slices, names, labels, flows, other


def read_csv(path, columns):
    need(os.path.isfile(path), "missing " + path)
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    need(rows and rows[0] == columns, "%s: header %s, want %s" % (path, rows[:1], columns))
    return [dict(zip(columns, r)) for r in rows[1:]]


def check_dir(top, stats_path):
    slices, names, labels, flows, other = check_trace(os.path.join(top, "trace.json"))
    per_unit = {}
    for s in slices:
        per_unit.setdefault(names[s["pid"]], []).append(s)
    summary = {"slices": len(slices), "cut": other.get("cut", False), "pipes": {}, "flows": flows,
               "units": sorted(per_unit), "code": {}}
    for unit, mine in per_unit.items():
        d = os.path.join(top, unit)
        code = read_csv(os.path.join(d, unit + "_code_exe.csv"), CODE_COLUMNS)
        instr = read_csv(os.path.join(d, unit + "_instr_exe.csv"), INSTR_COLUMNS)
        need(sum(int(r["call_count"]) for r in code) == len(mine),
             "%s: code_exe call_count sum != %d slices" % (unit, len(mine)))
        need(sum(int(r["call_count"]) for r in instr) == len(mine),
             "%s: instr_exe call_count sum != %d slices" % (unit, len(mine)))
        own = check_trace(os.path.join(d, "trace.json"))[0]
        need(len(own) == len(mine), "%s/trace.json: %d slices, want %d" % (unit, len(own),
                                                                           len(mine)))
        for r in code:
            summary["code"][r["code"]] = summary["code"].get(r["code"], 0) + int(r["call_count"])
    for s in slices:
        pipe = {0: "SCALAR", 1: "VECTOR", 2: "CUBE", 3: "MTE1", 4: "MTE2", 5: "MTE3",
                6: "FIXP"}[s["tid"]]
        summary["pipes"][pipe] = summary["pipes"].get(pipe, 0) + 1
    if stats_path:
        check_stats(slices, labels, stats_path)
    return summary


def find_core_stats(stats, core_id):
    """The stats.json group of core `core_id` ("aiv1"), searched anywhere in the tree."""
    stack = [stats]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        cores = node.get("cores")
        if isinstance(cores, dict) and core_id in cores:
            return cores[core_id]
        stack.extend(v for v in node.values() if isinstance(v, dict))
    return None


def check_stats(slices, labels, stats_path):
    with open(stats_path, encoding="utf-8") as f:
        stats = json.load(f)
    by_core = {}
    for s in slices:
        pipe = {1: "VECTOR", 2: "CUBE", 3: "MTE1", 4: "MTE2", 5: "MTE3", 6: "FIXP"}.get(s["tid"])
        if pipe is None:
            continue
        label = labels.get(s["pid"], "")
        need(label, "pid %s has no process_labels (its stats.json core)" % s["pid"])
        cycles, count = by_core.get((label, pipe), (0, 0))
        by_core[(label, pipe)] = (cycles + s["args"]["cycles"], count + 1)
    for (label, pipe), (cycles, count) in sorted(by_core.items()):
        core_id = label.replace("AI Core ", "core").replace(" ", "").lower()
        group = find_core_stats(stats, core_id)
        need(group is not None, "stats.json has no core %s" % core_id)
        stat = STAT_PIPES[pipe] + "_busy_cycles"
        busy = group.get(stat, {}).get("value", 0)
        # Each slice's cycles are rounded to a whole cycle.
        need(abs(cycles - busy) <= count / 2 + 1e-6,
             "%s %s: slices add up to %s cycles, stats.json %s = %s" %
             (label, pipe, cycles, stat, busy))


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if not args or "--help" in argv:
        sys.stdout.write(__doc__)
        return 0 if args else 2
    stats = None
    if "--stats" in argv:
        i = argv.index("--stats")
        if i + 1 >= len(argv):
            return 2
        stats = argv[i + 1]
        args = [a for a in args if a != stats]
    try:
        summary = check_dir(args[0], stats)
    except Problem as e:
        print("check_op_simulator: %s" % e)
        return 1
    if "--summary" in argv:
        print(json.dumps(summary, sort_keys=True))
    else:
        print("check_op_simulator: %s: %d slices in %d units, trace.json loads" %
              (args[0], summary["slices"], len(summary["units"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
