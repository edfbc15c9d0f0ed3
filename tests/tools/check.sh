#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `npusim check` / `npusim compare` end to end on real run outputs (the build tree's CLI; the runs
# are `npusim replay tests/tools/add_mul.yaml --config tiny --out ...`).
#   check.sh <npusim> <source dir> <scratch dir> <case>
set -euo pipefail
NPUSIM="$1"; SRC="$2"; WORK="$3"; CASE="$4"
rm -rf "${WORK}"; mkdir -p "${WORK}"; cd "${WORK}"
export NPUSIM_LOG=error

replay() {  # replay <out dir> [--set k=v]...
  local out="$1"; shift
  "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --out "${out}" "$@" > /dev/null
}
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"; }

case "${CASE}" in
  check)  # a targets file that holds (exit 0), one that does not (exit 1), JUnit XML for both
    replay run
    sim_us=$(json run/replay_summary.json "d['simulated_us']")
    cat > pass.yaml <<YAML
description: add_mul on the tiny preset
targets:
  - name: kernels
    metric: {op_summary: {agg: count}}
    expected: 5
    tolerance: {abs: 0}
  - name: Add kernels
    metric: {op_summary: {op: aclnnAdd_AddAiCore_Add, agg: count}}
    expected: 2
    tolerance: 0
  - name: host to device bytes   # the inputs: a 24 B, b 12 B, h 12 B, r 24 B
    metric: {stats: system.root_complex.h2d.bytes}
    expected: 72
    tolerance: 0
  - name: Add launches
    metric: {timeline: {event: AscendCL@aclnnAdd, agg: count}}
    expected: 2
    tolerance: 0
  - name: ops run
    metric: {replay: ops_run}
    expected: 5
    tolerance: 0
  - name: end to end
    metric: {replay: simulated_us}
    expected: ${sim_us}
    tolerance: 1%
    direction: lower_is_better
  - name: end to end, old target   # twice the time: the run is better, IMPROVED passes
    metric: {replay: simulated_us}
    expected: $(python3 -c "print(2 * ${sim_us})")
    tolerance: 5%
    direction: lower_is_better
  - name: Mul mean duration
    metric: {op_summary: {op_type: Mul, column: "Task Duration(us)", agg: mean}}
    expected: $(python3 -c "import csv; r = [float(x['Task Duration(us)']) for x in csv.DictReader(open('run/op_summary.csv')) if x['OP Type'] == 'Mul']; print(sum(r) / len(r))")
    tolerance: 0.001
YAML
    "${NPUSIM}" check pass.yaml run --junit pass.xml | tee pass.txt
    grep -Eq "^kernels +count +5 +±0 +5 +\+0\.00%  PASS$" pass.txt
    grep -Eq "^end to end, old target .* IMPROVED$" pass.txt
    grep -q "8 targets: 7 passed, 1 improved, 0 failed" pass.txt
    python3 - <<'PY'
import xml.etree.ElementTree as ET
s = ET.parse("pass.xml").getroot().find("testsuite")
assert s.get("tests") == "8" and s.get("failures") == "0" and s.get("errors") == "0", s.attrib
assert len(s.findall("testcase")) == 8 and not s.findall("testcase/failure")
PY
    # The same targets, one expected 25 % lower with no direction: FAIL, exit 1.
    sed "s/^    expected: 72$/    expected: 54/" pass.yaml > fail.yaml
    rc=0; "${NPUSIM}" check fail.yaml run --junit fail.xml > fail.txt 2>&1 || rc=$?
    cat fail.txt
    [[ ${rc} -eq 1 ]]
    grep -Eq "^host to device bytes +B +54 +±0% +72 +\+33\.33%  FAIL$" fail.txt
    grep -q "FAIL host to device bytes \[stats.json system.root_complex.h2d.bytes\]: expected 54 B ±0%, actual 72 B (+33.33%)" fail.txt
    grep -q "8 targets: 6 passed, 1 improved, 1 failed" fail.txt
    python3 - <<'PY'
import xml.etree.ElementTree as ET
s = ET.parse("fail.xml").getroot().find("testsuite")
assert s.get("failures") == "1", s.attrib
f = s.findall("testcase/failure")
assert len(f) == 1 and f[0].get("message") == "expected 54 B ±0%, actual 72 B (+33.33%)", [x.attrib for x in f]
PY
    ;;
  check_errors)  # malformed targets and missing outputs: exit 2, file / target / key / reason
    replay run
    printf 'targets:\n  - name: x\n    metric: {replay: simulated_us}\n    expected: 1\n    tolerance: 0.1\n    drection: lower_is_better\n' > typo.yaml
    rc=0; "${NPUSIM}" check typo.yaml run > out.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]]
    grep -q "npusim check: bad targets file: typo.yaml:6: target 0 ('x'): unknown key 'drection'" out.txt
    printf 'targets:\n  - {name: x, metric: {replay: simulated_us}, tolerance: 0.1}\n' > noexp.yaml
    rc=0; "${NPUSIM}" check noexp.yaml run > out.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]] && grep -q "noexp.yaml:2: target 0 ('x'): missing key 'expected'" out.txt
    printf 'targets:\n  - {name: x, metric: {replay: simulated_us}, expected: 1, tolerance: 10 percent}\n' > tol.yaml
    rc=0; "${NPUSIM}" check tol.yaml run > out.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]] && grep -q "tol.yaml:2: target 0 ('x'): key 'tolerance': '10 percent' is not a tolerance" out.txt
    printf 'targets: [\n' > broken.yaml
    rc=0; "${NPUSIM}" check broken.yaml run > out.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]] && grep -q "broken.yaml:.*not valid YAML" out.txt
    # A run made without replay has no replay_summary.json: the target cannot be evaluated.
    printf 'targets:\n  - {name: x, metric: {replay: simulated_us}, expected: 1, tolerance: 0.1}\n' > ok.yaml
    mkdir norun; echo '{}' > norun/stats.json
    rc=0; "${NPUSIM}" check ok.yaml norun > out.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]] && grep -q "target 'x' (ok.yaml:2): norun/replay_summary.json: missing" out.txt
    rc=0; "${NPUSIM}" check ok.yaml nosuchdir > out.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]] && grep -q "nosuchdir: not a directory" out.txt ;;
  compare)  # two runs at different AI Core clocks: the kernels and the end-to-end time differ
    replay fast
    replay slow --set aicore.frequency=500MHz
    "${NPUSIM}" compare fast slow --csv d.csv | tee out.txt
    # The configuration difference comes first: the one key set, with the runs' sources.
    [[ "$(sed -n 3p out.txt)" == "config.yaml: 1 key differs" ]]
    grep -q "^  B: preset tiny + overrides: aicore.frequency=500MHz$" out.txt
    grep -Eq "^aicore.frequency +1GHz +500MHz$" out.txt
    grep -Eq "^stats.json: [0-9]+ numeric metrics in both, [1-9][0-9]* changed" out.txt
    # Per-core rows are one line per unit, with the range of values and the rows' count.
    grep -Eq "^chip0.aicore.cores.aiv\*.busy_time +us +[0-9/]+ +[0-9.]+\.\.[0-9.]+ " out.txt
    ! grep -q "aiv1.busy_time" out.txt
    grep -Eq "^sim_time +us +1 " out.txt
    grep -Eq "^aclnnMul_MulAiCore_Mul +count +count +3 +3 +0 +\+0\.00%$" out.txt
    grep -Eq "^aclnnMul_MulAiCore_Mul +mean +us .* \+[0-9.]+%$" out.txt   # slower clock: longer kernels
    grep -Eq "^replay_summary.json simulated_us: A [0-9.]+ us, B [0-9.]+ us, delta [0-9.]+ us \(\+[0-9.]+%\)$" out.txt
    "${NPUSIM}" compare fast slow --unfold > unfold.txt
    grep -Eq "^chip0.aicore.cores.aiv1.busy_time +us +1 " unfold.txt
    python3 - <<'PY'
import csv
rows = list(csv.DictReader(open("d.csv")))
ops = {(r["name"], r["quantity"]): r for r in rows if r["section"] == "op"}
add = "aclnnAdd_AddAiCore_Add"
assert float(ops[(add, "total")]["b"]) > float(ops[(add, "total")]["a"]), ops
assert ops[(add, "total")]["unit"] == "us" and ops[(add, "count")]["unit"] == "count", ops
assert ops[(add, "count")]["delta"] == "0"
cfg = [r for r in rows if r["section"] == "config"]
assert [(r["name"], r["a"], r["b"]) for r in cfg] == [("aicore.frequency", "1GHz", "500MHz")], cfg
rep = [r for r in rows if r["section"] == "replay"]
assert len(rep) == 1 and float(rep[0]["delta"]) > 0, rep
st = [r for r in rows if r["section"] == "stats"]
assert st and all(r["a"] != r["b"] for r in st), st
PY
    # The same configuration twice: nothing changed.
    replay fast2
    "${NPUSIM}" compare fast fast2 > same.txt
    grep -Eq "^stats.json: [0-9]+ numeric metrics in both, 0 changed$" same.txt
    grep -Eq "^config.yaml: the same effective configuration \([0-9]+ keys\)$" same.txt
    rc=0; "${NPUSIM}" compare fast nothing > out.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]] && grep -q "nothing/stats.json: missing" out.txt ;;
  check_update)  # --update: a good run becomes the targets file; it passes on that run, fails on a drift
    replay good
    "${NPUSIM}" check targets.yaml good --update | tee update.txt
    grep -q "wrote targets.yaml: 11 targets from good, tolerance 1%" update.txt
    grep -q "metric: {stats: sim_time, unit: us}" targets.yaml
    "${NPUSIM}" check targets.yaml good --junit good.xml | tee good.txt
    grep -q "11 targets: 11 passed, 0 improved, 0 failed" good.txt
    grep -Eq "^simulated time +us +[0-9.]+ +±1% +[0-9.]+ +\+0\.00%  PASS$" good.txt
    # The same trace on a slower AI Core clock: the kernels take longer and fail their targets.
    replay drift --set aicore.frequency=500MHz
    rc=0; "${NPUSIM}" check targets.yaml drift > drift.txt || rc=$?
    cat drift.txt
    [[ ${rc} -eq 1 ]]
    grep -Eq "^Add time +us +[0-9.]+ +±1% +[0-9.]+ +\+[0-9.]+%  FAIL$" drift.txt
    grep -Eq "^kernels +count +5 +±1% +5 +\+0\.00%  PASS$" drift.txt
    # An existing file is updated in place: the comment stays, expected values follow the run.
    sed -i '1i # my targets' targets.yaml
    "${NPUSIM}" check targets.yaml drift --update --tolerance 5% | tee update2.txt
    grep -Eq "^Add time +us +[0-9.]+ +[0-9.]+ +\+[0-9.]+%$" update2.txt
    [[ "$(head -1 targets.yaml)" == "# my targets" ]]
    [[ $(grep -c "tolerance: 5%" targets.yaml) -eq 11 ]]
    "${NPUSIM}" check targets.yaml drift > /dev/null
    rc=0; "${NPUSIM}" check targets.yaml good --tolerance 5% > /dev/null 2> err.txt || rc=$?
    [[ ${rc} -ne 0 ]] && grep -q "requires --update" err.txt ;;
  *) echo "unknown case ${CASE}"; exit 2 ;;
esac
