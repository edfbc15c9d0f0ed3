#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `npusim replay` end to end (the build tree's CLI, in process with libacl_rt.so).
#   replay.sh <npusim> <source dir> <scratch dir> <case>
set -euo pipefail
NPUSIM="$1"; SRC="$2"; WORK="$3"; CASE="$4"
rm -rf "${WORK}"; mkdir -p "${WORK}"; cd "${WORK}"
export NPUSIM_LOG=error

json_check() {  # json_check <file> <python expression over `d` that must be true>
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if not eval(sys.argv[2]):
    text = json.dumps(d)
    sys.exit("check failed: " + sys.argv[2] + (" in " + text if len(text) < 2000 else ""))
PY
}

case "${CASE}" in
  timing_only)  # aicore.functional=false: the same simulated times, checks skipped (not failed)
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --out f > f.txt
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --set aicore.functional=false --out t | tee t.txt
    grep -q "check y: skipped (timing-only run" t.txt
    json_check t/replay_summary.json "d['checks_passed'] == 0 and d['checks_skipped'] == 3 and d['checks_failed'] == 0"
    json_check f/replay_summary.json "d['checks_passed'] == 3 and d['checks_skipped'] == 0"
    fsim=$(python3 -c "import json; print(json.load(open('f/replay_summary.json'))['simulated_us'])")
    tsim=$(python3 -c "import json; print(json.load(open('t/replay_summary.json'))['simulated_us'])")
    [[ "${fsim}" == "${tsim}" ]] || { echo "timing-only ${tsim} us != functional ${fsim} us"; exit 1; }
    cmp <(cut -d, -f1-12 f/op_summary.csv) <(cut -d, -f1-12 t/op_summary.csv)
    ;;
  add_mul)  # results checked by the trace's expect: entries; events between the two streams
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --out out | tee run.txt
    grep -q "check y: OK" run.txt && grep -q "check z: OK" run.txt && grep -q "check hz: OK" run.txt
    grep -q "ops run: 5 (5 per iteration x 1); streams: 2" run.txt
    grep -Eq "simulated end-to-end: [0-9]+\.[0-9]{3} us" run.txt
    json_check out/replay_summary.json "d['ops_run'] == 5 and d['checks_passed'] == 3 and d['skipped'] == {}"
    # Two cross-stream dependencies: stream 1 waits for add, stream 0 waits for mul.
    json_check out/timeline.json \
      "sum(1 for e in d if e.get('ph') == 'X' and e.get('name') == 'AscendCL@aclrtStreamWaitEvent') == 1 + 2 + 1"
    for f in timeline.json stats.json op_summary.csv config.yaml; do [[ -s out/${f} ]]; done
    [[ $(grep -c "^" out/op_summary.csv) -eq 6 ]]  # header + 5 kernels
    # op_summary.csv names each operator and its tensors as msprof does: it replays as a trace
    # (msprof_csv.cpp), giving the same rows; --stats full writes the zero statistics too.
    "${NPUSIM}" replay out/op_summary.csv --config tiny --stats full --out again > again.txt
    grep -q "ops run: 5 (5 per iteration x 1)" again.txt
    python3 - out/op_summary.csv again/op_summary.csv <<'PY'
import csv, sys
cols = ["Op Name", "OP Type", "Input Shapes", "Input Data Types", "Input Formats",
        "Output Shapes", "Output Data Types", "Output Formats"]
a, b = ([[r[c] for c in cols] for r in csv.DictReader(open(f))] for f in sys.argv[1:])
assert a == b, (a, b)
assert a[0] == ["aclnnAdd_AddAiCore_Add", "Add", "2,3;3", "FLOAT;FLOAT", "ND;ND", "2,3", "FLOAT",
                "ND"], a[0]
PY
    grep -q '"zeros": "folded"' out/stats.json && grep -q '"zeros": "written"' again/stats.json
    grep -q "^zeros written$" again/stats.txt && grep -q "^# unit: us$" out/stats.txt
    # Synchronous per op, three iterations: same results, no events between the ops.
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --sync-per-op --repeat 3 \
      --out sync | tee sync.txt
    grep -q "ops run: 15 (5 per iteration x 3); streams: 2 (synchronous per op)" sync.txt
    grep -q "check z: OK" sync.txt
    json_check sync/timeline.json \
      "sum(1 for e in d if e.get('ph') == 'X' and e.get('name') == 'AscendCL@aclrtStreamWaitEvent') == 1 + 1"
    # --dump writes the role-output tensors.
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --dump dump > /dev/null
    python3 -c "import struct; v = struct.unpack('6f', open('dump/y.bin','rb').read()); assert v == (2,6,12,20,30,42), v" ;;
  events)  # only the waits the graph needs: an ordering implied by an earlier wait adds none
    cat > ev.yaml <<'YAML'
tensors:
  - {name: a, shape: [4], dtype: float32, role: input, init: {values: [1, 2, 3, 4]}}
  - {name: x, shape: [4], dtype: float32}
  - {name: y, shape: [4], dtype: float32}
  - {name: z, shape: [4], dtype: float32}
  - {name: w, shape: [4], dtype: float32, role: output, expect: {values: [6, 12, 20, 30]}}
ops:
  - {type: Add, name: A, inputs: [a, a], outputs: [x], alpha: 0}   # x = a        (stream 0)
  - {type: Add, name: B, inputs: [x, a], outputs: [y], stream: 1}  # y = 2a       waits for A
  - {type: Mul, name: C, inputs: [x, a], outputs: [z], stream: 1}  # z = a*a      ordered by B's wait
  - {type: Add, name: D, inputs: [y, z], outputs: [w], stream: 2}  # waits for C only (C follows A)
  - {type: Add, name: E, inputs: [w, x], outputs: [w], stream: 2}  # w = a*a+3a   x: implied
YAML
    sed -i 's/values: \[6, 12, 20, 30\]/values: [4, 10, 18, 28]/' ev.yaml
    "${NPUSIM}" replay ev.yaml --config tiny --out out | tee run.txt
    grep -q "check w: OK" run.txt
    # 2 streams wait for the start event, B waits for A, D for C, 2 joins into stream 0.
    json_check out/timeline.json \
      "sum(1 for e in d if e.get('ph') == 'X' and e.get('name') == 'AscendCL@aclrtStreamWaitEvent') == 2 + 1 + 1 + 2"
    json_check out/timeline.json \
      "sum(1 for e in d if e.get('ph') == 'X' and e.get('name') == 'AscendCL@aclrtRecordEvent') == 1 + 2 + 2 + 1" ;;
  refused)  # an op whose operator refuses its arguments: named and counted, the others run
    cat > rej.yaml <<'YAML'
tensors:
  - {name: a, shape: [4], dtype: float32, role: input, init: {value: 1}}
  - {name: b, shape: [5], dtype: float32, role: input}
  - {name: y, shape: [4], dtype: float32, role: output, expect: {value: 2}}
  - {name: z, shape: [4], dtype: float32, role: output}
ops:
  - {type: Add, name: bad, inputs: [a, b], outputs: [z]}
  - {type: Add, name: good, inputs: [a, a], outputs: [y]}
  - {type: Mul, name: bad2, inputs: [b, a], outputs: [z], stream: 1}
YAML
    "${NPUSIM}" replay rej.yaml --config tiny --out out > run.txt 2> err.txt
    grep -q "check y: OK" run.txt
    grep -q "ops run: 1 (3 per iteration x 1), 2 refused by their operator" run.txt
    grep -q "op type Add (1 op): refused by its operator, not run; first: op 0 (Add 'bad'): aclnnAddGetWorkspaceSize returned 161002" err.txt
    grep -q "op type Mul (1 op): refused by its operator" err.txt
    json_check out/replay_summary.json "d['rejected'] == {'Add': 1, 'Mul': 1} and d['ops_run'] == 1"
    set +e; "${NPUSIM}" replay rej.yaml --config tiny --strict > s.txt 2>&1; rc=$?; set -e
    [[ ${rc} -eq 1 ]] && grep -q "rej.yaml: op 0 (Add 'bad'): aclnnAddGetWorkspaceSize returned 161002" s.txt ;;
  kernel_failure)  # a kernel that fails on the device fails the run (exit 1) and names it
    cat > fail.yaml <<'YAML'
tensors:
  - {name: w, shape: [4, 8], dtype: float32, role: weight}
  - {name: idx, shape: [2], dtype: int32, role: input, init: {values: [0, 9]}}
  - {name: out, shape: [2, 8], dtype: float32, role: output}
ops:
  - {type: Embedding, inputs: [w, idx], outputs: [out]}
YAML
    rc=0
    "${NPUSIM}" replay fail.yaml --config tiny > run.txt 2> err.txt || rc=$?
    [[ ${rc} -eq 1 ]]
    grep -q "index 9 at position 1 is outside" run.txt  # the kernel's printf
    grep -q "a kernel failed.*507035" err.txt
    ! grep -q "simulated end-to-end" run.txt ;;
  failing_check)  # a wrong expectation fails the run (exit 1) and says which elements
    sed 's/values: \[2, 6, 12, 20, 30, 42\]/values: [2, 6, 12, 20, 30, 41]/' \
      "${SRC}/tests/tools/add_mul.yaml" > wrong.yaml
    if "${NPUSIM}" replay wrong.yaml --config tiny > run.txt 2>&1; then cat run.txt; exit 1; fi
    grep -q "check y: FAILED, 1 of 6 elements differ: \[5\] 42 (expected 41)" run.txt ;;
  missing_ops)  # ops left out (--skip-op) are named and counted, never dropped silently
    cat > mul.yaml <<'YAML'
tensors:
  - {name: a, shape: [4], dtype: float32, role: input}
  - {name: y, shape: [4], dtype: float32, role: output}
ops:
  - {type: Mul, inputs: [a, a], outputs: [y]}
YAML
    # (--strict does not refuse ops skipped on request.)
    "${NPUSIM}" replay mul.yaml --config tiny --skip-op Mul --strict --out skip > run0.txt 2> err0.txt
    grep -q "op type Mul (1 op): skipped (--skip-op)" err0.txt
    json_check skip/replay_summary.json "d['skipped'] == {'Mul': 1} and d['ops_run'] == 0"
    # An operator the library lacks is reported the same way ("aclnnXxx is not in this npusim
    # build", and --strict refuses the run): tools_tests covers it with a fake symbol lookup, since
    # every operator the traces use is now in the library.
    ;;
  csv)  # msprof op_summary CSV: rows replayed; an unknown OP Type reported by name with a count
    "${NPUSIM}" replay "${SRC}/tests/tools/msprof_sample.csv" --config tiny --out out > run.txt 2> err.txt
    cat run.txt err.txt
    grep -q "OP Type MysteryOp (2 rows): cannot be replayed: no op table entry for OP Type 'MysteryOp'" err.txt
    grep -q "2 of 7 CSV rows not replayable" run.txt
    grep -q "captured (msprof, sum of Task Duration of the replayed rows)" run.txt
    # 5 replayable rows: those whose operators are in the library ran, the others are named.
    json_check out/replay_summary.json \
      "d['skipped']['MysteryOp'] == 2 and d['ops_run'] + sum(v for k, v in d['skipped'].items() if k != 'MysteryOp') == 5 and d['ops_run'] >= 3 and d['streams'] == 2"
    set +e; "${NPUSIM}" replay "${SRC}/tests/tools/msprof_sample.csv" --config tiny --strict > s.txt 2>&1; rc=$?; set -e
    [[ ${rc} -eq 2 ]] && grep -q "OP Type MysteryOp (2 rows)" s.txt ;;
  determinism)  # the same trace and config twice: identical timelines
    for run in 1 2; do
      "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --repeat 2 --out run${run} > /dev/null
      "${NPUSIM}" replay "${SRC}/tests/tools/msprof_sample.csv" --config tiny --out csv${run} > /dev/null 2>&1
    done
    cmp run1/timeline.json run2/timeline.json
    cmp run1/stats.json run2/stats.json
    cmp run1/replay_summary.json run2/replay_summary.json
    cmp csv1/timeline.json csv2/timeline.json ;;
  bad_trace)  # a bad trace is reported with file, key and reason; nothing crashes
    printf 'tensors:\n  - {name: a, shape: [4], dtype: float32}\nops:\n  - {type: Softmax, inputs: [a], outputs: [a], axis: 1}\n' > bad.yaml
    set +e; "${NPUSIM}" replay bad.yaml --config tiny > out.txt 2>&1; rc=$?; set -e
    [[ ${rc} -eq 2 ]]
    grep -q "bad trace: bad.yaml:4: op 0 (Softmax 'Softmax_0'): unknown attribute 'axis' for Softmax (it takes: dim)" out.txt
    set +e; "${NPUSIM}" replay bad.yaml --config nosuchchip > out2.txt 2>&1; rc=$?; set -e
    [[ ${rc} -eq 2 ]] && grep -q "bad configuration" out2.txt
    set +e; "${NPUSIM}" replay "${SRC}/traces/llama7b_decode.yaml" --param layer=2 > out3.txt 2>&1; rc=$?; set -e
    [[ ${rc} -eq 2 ]] && grep -q "the trace has no parameter 'layer'" out3.txt ;;
  bad_dump)  # issue 23: --dump into a directory that cannot take files fails before the run
    touch not_a_dir  # a path under a regular file: unwritable for root too
    set +e; "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --dump not_a_dir/d \
      > out.txt 2>&1; rc=$?; set -e
    cat out.txt
    [[ ${rc} -eq 2 ]] && grep -q "npusim replay: --dump not_a_dir/d: cannot write files there" out.txt
    ! grep -q "ops run:" out.txt  # nothing ran
    # NPUSIM_LOG=garbage: reported once, naming the valid levels, by a run that logs nothing else.
    NPUSIM_LOG=garbage "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny \
      --dump dump > out2.txt 2> err2.txt
    cat err2.txt
    [[ $(grep -c 'NPUSIM_LOG="garbage" is not one of off, error, warn, info, debug' err2.txt) -eq 1 ]]
    [[ -s dump/y.bin ]]
    # ... and by a command that never logs (compare of two missing runs: exit 2 with its reason).
    set +e; NPUSIM_LOG=garbage "${NPUSIM}" compare no_run_a no_run_b > out3.txt 2> err3.txt; rc=$?; set -e
    cat err3.txt
    [[ ${rc} -eq 2 ]]
    [[ $(grep -c 'NPUSIM_LOG="garbage" is not one of off, error, warn, info, debug' err3.txt) -eq 1 ]] ;;
  *) echo "unknown case ${CASE}"; exit 2 ;;
esac
