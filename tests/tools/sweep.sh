#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `npusim sweep` end to end (the build tree's CLI): the 50-run sweep of tests/tools/sweep_add_mul.yaml
# on the local pool and through a real single-node Slurm (slurm_local.sh), resuming, failures
# and the sweep file's errors.
#   sweep.sh <npusim> <source dir> <scratch dir> <case>
set -euo pipefail
NPUSIM="$1"; SRC="$2"; WORK="$3"; CASE="$4"
rm -rf "${WORK}"; mkdir -p "${WORK}"; cd "${WORK}"
export NPUSIM_LOG=error
SWEEP="${SRC}/tests/tools/sweep_add_mul.yaml"

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error() {  # expect_error <expected stderr text> <sweep file>
  local want="$1" file="$2" rc=0
  "${NPUSIM}" sweep "${file}" --out out_err > err.out 2> err.txt || rc=$?
  [[ ${rc} -eq 2 ]] || fail "${file}: exit ${rc}, expected 2 ($(cat err.txt))"
  grep -qF -- "${want}" err.txt || fail "${file}: expected '${want}' in: $(cat err.txt)"
}

# The table of the 50-run sweep: 50 rows, every run ok, the right grid, and values that behave:
# the H2D bytes are the trace's inputs (72 B) whatever the link; the Add kernels' time depends on
# the AI core clock only (equal across bandwidths, strictly shorter at each higher clock).
check_table() {
  python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 50, len(rows)
assert [int(r["run"]) for r in rows] == list(range(50))
assert all(r["status"] == "ok" and r["exit_code"] == "0" for r in rows), [r for r in rows if r["status"] != "ok"]
assert rows[0]["pcie.h2d_bandwidth"] == "1GB/s" and rows[0]["aicore.frequency"] == "600MHz"
assert rows[49]["pcie.h2d_bandwidth"] == "64GB/s" and rows[49]["aicore.frequency"] == "1800MHz"
# Each metric column's header carries its unit.
assert list(rows[0])[-4:] == ["simulated_us (us)", "h2d_bytes (B)", "kernels (count)", "add_us (us)"], list(rows[0])
assert all(float(r["h2d_bytes (B)"]) == 72 and int(r["kernels (count)"]) == 5 for r in rows)
by_clock = {}
for r in rows:
    by_clock.setdefault(r["aicore.frequency"], set()).add(float(r["add_us (us)"]))
assert all(len(v) == 1 for v in by_clock.values()), by_clock
clocks = ["600MHz", "900MHz", "1200MHz", "1500MHz", "1800MHz"]
times = [next(iter(by_clock[c])) for c in clocks]
assert all(a > b for a, b in zip(times, times[1:])), times
print("table ok: Add time by clock", times)
PY
}

case "${CASE}" in
  local)  # the 50 runs on a pool of 2; again: all skipped, same table; --rerun: same table again
    "${NPUSIM}" sweep "${SWEEP}" --out s -j 2 > log1.txt
    grep -q "50 runs, 50 to run" log1.txt || fail "first sweep: $(head -3 log1.txt)"
    check_table s/sweep.csv
    python3 -c "import json; m = json.load(open('s/sweep_meta.json')); assert m['params'] == ['pcie.h2d_bandwidth', 'aicore.frequency'], m; assert m['metrics'] == ['simulated_us', 'h2d_bytes', 'kernels', 'add_us'], m; assert m['metric_units'] == {'simulated_us': 'us', 'h2d_bytes': 'B', 'kernels': 'count', 'add_us': 'us'}, m"
    # Progress: after each run, done/total, the elapsed time and an ETA; the last one 0.
    [[ $(grep -cE '^\[[0-9]+/50\] run [0-9]+ ok  .*  \(elapsed [0-9.]+ s, ETA [0-9.:]+( s)?\)$' log1.txt) -eq 50 ]] ||
      fail "progress lines without an ETA: $(head -3 log1.txt)"
    grep -qE '^\[50/50\] .*, ETA 0\.0 s\)$' log1.txt || fail "the last ETA is not 0: $(grep '50/50' log1.txt)"
    # The closing line: runs ok / failed, the time taken, where the results are.
    tail -1 log1.txt | grep -qE '^sweep add_mul_pcie: 50 runs: 50 ok, 0 failed; 50 ran in [0-9.:]+( s)?; results: s/sweep.csv, s/sweep_meta.json, s/runs/<i>/$' ||
      fail "no summary line: $(tail -1 log1.txt)"
    for i in 0 49; do [[ -s s/runs/${i}/stats.json && -s s/runs/${i}/timeline.json ]] || fail "run ${i} has no outputs"; done
    grep -q "aicore.frequency: 1800MHz\|frequency: 1.8GHz\|frequency: 1800MHz" s/runs/49/config.yaml ||
      fail "run 49's effective config does not show its clock"
    cp s/sweep.csv first.csv
    "${NPUSIM}" sweep "${SWEEP}" --out s -j 2 > log2.txt
    grep -q "50 runs, 0 to run (50 already finished)" log2.txt || fail "resume: $(head -1 log2.txt)"
    cmp first.csv s/sweep.csv || fail "the resumed table differs"
    # A run whose record is gone (a killed Slurm task, say) runs again, alone.
    rm s/runs/17/run.json
    "${NPUSIM}" sweep "${SWEEP}" --out s -j 2 > log3.txt
    grep -q "50 runs, 1 to run" log3.txt || fail "resume after a lost run: $(head -1 log3.txt)"
    grep -q "run 17 ok" log3.txt || fail "run 17 was not run again"
    cmp first.csv s/sweep.csv || fail "the table differs after re-running run 17 (not deterministic)"
    # --collect rebuilds the table without running anything.
    rm s/sweep.csv
    "${NPUSIM}" sweep "${SWEEP}" --out s --collect > log4.txt
    cmp first.csv s/sweep.csv || fail "--collect gave another table"
    ;;

  failures)  # a run that fails is recorded as failed with its exit code; the sweep exits 1
    cat > bad_runs.yaml <<YAML
replay: ${SRC}/tests/tools/add_mul.yaml
config: tiny
runs:
  - {aicore.frequency: 1GHz}
  - {aicore.frequency: 1GHz, param.missing_parameter: 3}
YAML
    rc=0; "${NPUSIM}" sweep bad_runs.yaml --out b -j 2 > log.txt 2>&1 || rc=$?
    [[ ${rc} -eq 1 ]] || fail "a sweep with a failing run exits ${rc}, expected 1: $(cat log.txt)"
    grep -q "run 1 failed (exit 2" log.txt || fail "the failing run is not reported: $(cat log.txt)"
    grep -q "^sweep bad_runs: 2 runs: 1 ok, 1 failed; 2 ran in " log.txt || fail "no summary: $(cat log.txt)"
    python3 - <<'PY'
import csv
rows = list(csv.DictReader(open("b/sweep.csv")))
assert rows[0]["status"] == "ok" and float(rows[0]["simulated (us)"]) > 0, rows[0]
assert rows[1]["status"] == "failed" and rows[1]["exit_code"] == "2" and rows[1]["simulated (us)"] == "", rows[1]
assert rows[1]["param.missing_parameter"] == "3" and rows[0]["param.missing_parameter"] == ""
PY
    grep -q "missing_parameter" b/runs/1/stderr.txt || fail "the failing run's stderr does not say why"
    # The same directory refuses another sweep.
    rc=0; "${NPUSIM}" sweep "${SWEEP}" --out b > other.txt 2>&1 || rc=$?
    [[ ${rc} -eq 2 ]] && grep -q "holds a different sweep" other.txt || fail "another sweep in b: exit ${rc}: $(cat other.txt)"
    ;;

  errors)  # the sweep file's mistakes: file, line, key and reason; nothing runs
    printf 'replay: %s\nconfig: tiny\ngrid:\n  pcie.h2d_bandwidth: [1GB/s]\ncolour: red\n' "${SRC}/tests/tools/add_mul.yaml" > unknown.yaml
    expect_error "unknown.yaml:5: unknown key 'colour'" unknown.yaml
    printf 'replay: %s\nconfig: tiny\ngrid:\n  pcie.h2d_bandwidth: [1GB/s, fast]\n' "${SRC}/tests/tools/add_mul.yaml" > badvalue.yaml
    expect_error "run 1 (pcie.h2d_bandwidth=fast)" badvalue.yaml
    grep -q "pcie.h2d_bandwidth" err.txt || fail "the bad value's key is not named"
    printf 'replay: %s\ngrid:\n  pcie.no_such_key: [1]\n' "${SRC}/tests/tools/add_mul.yaml" > badkey.yaml
    expect_error "no_such_key" badkey.yaml
    printf 'replay: missing.yaml\nruns:\n  - {config: tiny}\n' > notrace.yaml
    expect_error "no such trace file" notrace.yaml
    printf 'replay: %s\nruns:\n  - {config: tiny}\n  - {config: tiny}\n' "${SRC}/tests/tools/add_mul.yaml" > repeat.yaml
    expect_error "run 1 (config=tiny) repeats run 0" repeat.yaml
    printf 'run: [./a.out]\ngrid:\n  param.layers: [1, 2]\n' > runparam.yaml
    expect_error "trace parameters (param.NAME) need 'replay'" runparam.yaml
    printf 'replay: %s\nruns:\n  - {config: tiny}\nmetrics:\n  x: {stats: a..b}\n' "${SRC}/tests/tools/add_mul.yaml" > badmetric.yaml
    expect_error "badmetric.yaml:5: metrics.x.stats: 'a..b' is not a dotted path" badmetric.yaml
    printf 'replay: %s\nconfig: tiny\n' "${SRC}/tests/tools/add_mul.yaml" > empty.yaml
    expect_error "nothing to sweep" empty.yaml
    [[ ! -e out_err ]] || fail "a bad sweep file created its output directory"
    ;;

  slurm)  # the same 50 runs as one Slurm job array on a real single-node Slurm; same table
    if ! bash "${SRC}/tests/tools/slurm_local.sh" start "${WORK}/slurm" > slurm_start.txt 2>&1; then
      if grep -q "Slurm cannot start here" slurm_start.txt; then
        echo "SKIP: $(grep 'cannot start' slurm_start.txt)"; exit 77
      fi
      cat slurm_start.txt; fail "slurm_local.sh start failed"
    fi
    export SLURM_CONF="${WORK}/slurm/slurm.conf"
    trap 'bash "${SRC}/tests/tools/slurm_local.sh" stop "${WORK}/slurm" > /dev/null 2>&1 || true' EXIT
    "${NPUSIM}" sweep "${SWEEP}" --out s --slurm --sbatch=--time=10 --sbatch=--job-name=npusim-test > log1.txt
    grep -q "submitted Slurm job array [0-9]* (50 tasks, --array=0-49)" log1.txt || fail "no array job: $(cat log1.txt)"
    job=$(sed -n 's/.*submitted Slurm job array \([0-9]*\).*/\1/p' log1.txt)
    shown="$(scontrol -o show job "${job}")"
    grep -q "JobName=npusim-test .*TimeLimit=00:10:00" <<< "${shown}" ||
      fail "the --sbatch options did not reach the job: $(head -1 <<< "${shown}")"
    check_table s/sweep.csv
    "${NPUSIM}" sweep "${SWEEP}" --out local -j 2 > /dev/null
    cmp s/sweep.csv local/sweep.csv || fail "the Slurm table differs from the local pool's"
    # Resumable: two lost runs are resubmitted as a two-task array.
    rm s/runs/3/run.json s/runs/40/run.json
    "${NPUSIM}" sweep "${SWEEP}" --out s --slurm --slurm-parallel 1 > log2.txt
    grep -q "(2 tasks, --array=3,40%1)" log2.txt || fail "resume did not resubmit runs 3 and 40: $(cat log2.txt)"
    cmp s/sweep.csv local/sweep.csv || fail "the resumed Slurm table differs"
    ;;

  *) fail "unknown case ${CASE}" ;;
esac
echo "PASS ${CASE}"
