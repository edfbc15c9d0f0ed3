#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks a PROF_ folder written by tests/e2e/profiling.cpp under aclprof alone (no NPUSIM_OUT):
# msprof's layout (runtime/prof/profiler.h) with the session's timeline and summaries, the
# operator's op_summary row (its Op Name and tensors), and tracks of device 0 only.
import csv, json, os, sys

root = sys.argv[1]
out = os.path.join(root, "mindstudio_profiler_output")
want = ["README.txt", "api_statistic_000001.csv", "msprof_000001.json", "msprof_tx_000001.csv",
        "op_statistic_000001.csv", "op_summary_000001.csv", "task_time_000001.csv"]
if sorted(os.listdir(out)) != want:
    sys.exit("files: %s" % sorted(os.listdir(out)))
if sorted(os.listdir(root)) != ["device_0", "mindstudio_profiler_output"]:
    sys.exit("folders: %s" % sorted(os.listdir(root)))
info = json.load(open(os.path.join(root, "device_0", "info.json")))
if info["device_id"] != 0 or info["soc"] == "":
    sys.exit("device_0/info.json: %s" % info)


def rows(name):
    return list(csv.DictReader(open(os.path.join(out, name + "_000001.csv"))))


ops = rows("op_summary")
if len(ops) != 1:
    sys.exit("op_summary rows: %s" % ops)
add = ops[0]
expect = {"Op Name": "aclnnAdd_AddAiCore_Add", "OP Type": "Add", "Input Shapes": "16,64;16,64",
          "Input Data Types": "FLOAT16;FLOAT16", "Input Formats": "ND;ND",
          "Output Shapes": "16,64", "Output Data Types": "FLOAT16", "Output Formats": "ND"}
for k, v in expect.items():
    if add[k] != v:
        sys.exit("op_summary %s: %r, expected %r" % (k, add[k], v))
stat = rows("op_statistic")
if [(r["OP Type"], r["Core Type"], r["Count"], r["Total Time(us)"], r["Ratio(%)"]) for r in stat] != \
        [("Add", add["Task Type"], "1", add["Task Duration(us)"], "100.000")]:
    sys.exit("op_statistic: %s" % stat)
api = {r["API Name"]: r for r in rows("api_statistic")}
if api["aclrtMemcpy"]["Count"] != "2" or api["aclnnAdd"]["Level"] != "AscendCL" or \
        api["aclrtMemcpy"]["Device_id"] != "host" or "aclrtSetDevice" in api:
    sys.exit("api_statistic: %s" % sorted(api))
tasks = rows("task_time")
kinds = [(r["kernel_name"], r["kernel_type"]) for r in tasks]
if ("Add", "KERNEL_AIVEC") not in kinds and ("Add", "KERNEL_AICORE") not in kinds:
    sys.exit("task_time: no Add kernel: %s" % kinds)
if not any(n == "N/A" and t.endswith("_SQE") for n, t in kinds):
    sys.exit("task_time: no copy task: %s" % kinds)
events = json.load(open(os.path.join(out, "msprof_000001.json")))
labels = {e["args"]["labels"] for e in events if e.get("name") == "process_labels"}
if labels != {"CPU", "NPU 0"}:
    sys.exit("timeline processes of %s (only the host and device 0 ran something)" % labels)
if any(e.get("name") == "AscendCL@aclrtSetDevice" for e in events):
    sys.exit("the timeline holds what happened before aclprofStart")
print("PROF_ folder ok: %d tasks, %d APIs, Add %s us" % (len(tasks), len(api), add["Task Duration(us)"]))
