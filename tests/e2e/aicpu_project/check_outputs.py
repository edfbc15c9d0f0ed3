#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks the outputs of aicpu_e2e on the tiny preset (aicpu: 1 GHz, ipc 1, 1 instruction per
# basic block, 8 B/cycle, task_start 1 us): op_summary.csv has the AI CPU tasks with Task Type
# AI_CPU (aclnnIndexPutImpl's too), and every span on an "AI CPU core" track lasts exactly
#   task_start + (basic blocks * instructions_per_bb / ipc + bytes / hbm_bytes_per_cycle) cycles.
# Prints "<name> <basic blocks>" per span (the determinism check compares two runs' lists).
import csv, json, math, sys

out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/op_summary.csv")))
aicpu = [r for r in rows if r["Task Type"] == "AI_CPU"]
names = sorted(r["OP Type"] for r in aicpu)
if names != ["FailingOp", "IndexPut", "NonZeroIndex", "NonZeroIndex", "NonZeroIndex"]:
    sys.exit("op_summary AI_CPU rows: %s" % names)
# Op Name "<API>_<kernel>AiCpu_<OP Type>" (models/op_info.h), with the operator's tensors.
put = [r for r in aicpu if r["OP Type"] == "IndexPut"]
if put[0]["Op Name"] != "aclnnIndexPutImpl_IndexPutAiCpu_IndexPut" or \
        put[0]["Input Shapes"] == "N/A" or put[0]["Output Formats"] == "N/A":
    sys.exit("aclnnIndexPutImpl's row: %s" % put[0])
if any(not r["Op Name"].endswith("AiCpu_" + r["OP Type"]) for r in aicpu):
    sys.exit("AI_CPU Op Names: %s" % [r["Op Name"] for r in aicpu])
for r in aicpu:
    if r["aicore_time(us)"] != "N/A" or r["Block Num"] != "1":
        sys.exit("AI_CPU row: %s" % r)

events = json.load(open(out + "/timeline.json"))
events = events["traceEvents"] if isinstance(events, dict) else events
tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
          if e.get("ph") == "M" and e.get("name") == "thread_name"}
spans = [e for e in events if e.get("ph") == "X" and
         tracks.get((e["pid"], e["tid"]), "").startswith("AI CPU core")]
if len(spans) != 5:
    sys.exit("expected 5 AI CPU spans, got %d" % len(spans))
for e in spans:
    bbs = e["args"]["basic blocks"]
    mem = e["args"]["device memory(B)"]
    cycles = math.ceil(bbs * 1 / 1.0) + math.ceil(mem / 8)
    want_us = 1.0 + cycles / 1e3
    if abs(e["dur"] - want_us) > 1e-6:
        sys.exit("span %s: %.6f us, expected %.6f us from %d basic blocks, %d B" %
                 (e["name"], e["dur"], want_us, bbs, mem))
    if e["name"] == "NonZeroIndex" and bbs < 1000:
        sys.exit("NonZeroIndex over 1000 elements counted only %d basic blocks" % bbs)
    print(e["name"], int(bbs), e["dur"])
