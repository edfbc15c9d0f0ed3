#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `npusim report` end to end (the build tree's CLI and tools/report/npusim_report.py next to it).
# The pages are checked as a person would see them: loaded in headless Chromium, whose DOM (after
# the page's own script recorded each plot's decoded size and drawn pixels) and screenshot are
# inspected. Cases that need the browser exit 77 (skip) when Chromium is not installed
# ($NPUSIM_TEST_BROWSER names another Chromium-like browser).
#   report.sh <npusim> <source dir> <scratch dir> <case>
set -euo pipefail
NPUSIM="$1"; SRC="$2"; WORK="$3"; CASE="$4"
rm -rf "${WORK}"; mkdir -p "${WORK}"; cd "${WORK}"
export NPUSIM_LOG=error
# The Python npusim report uses (Debian's, with python3-matplotlib and python3-pil).
PY="${NPUSIM_PYTHON:-/usr/bin/python3}"
[[ -x "${PY}" ]] || PY=python3

browser() {  # the browser: $NPUSIM_TEST_BROWSER, else the first of these on PATH
  for b in ${NPUSIM_TEST_BROWSER:-chromium chromium-browser google-chrome}; do
    if command -v "${b}" > /dev/null; then command -v "${b}"; return; fi
  done
  echo "SKIP: Chromium is not installed (apt-get install chromium): cannot render the pages" >&2
  exit 77
}

# dom <page.html> <out.dom.html>: the DOM after load, as headless Chromium has it.
dom() {
  timeout 120 "${CHROME}" --headless=new --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="${WORK}/chrome-profile" --dump-dom "file://$(realpath "$1")" \
    > "$2" 2> "${WORK}/chrome.log" || { cat "${WORK}/chrome.log"; exit 1; }
}

shot() {  # shot <page.html> <out.png>
  timeout 120 "${CHROME}" --headless=new --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="${WORK}/chrome-profile" --hide-scrollbars --window-size=1280,2400 \
    --screenshot="$(realpath -m "$2")" "file://$(realpath "$1")" > /dev/null 2>> "${WORK}/chrome.log"
  [[ -s "$2" ]] || { cat "${WORK}/chrome.log"; exit 1; }
}

# A sweep directory in the format of npusim sweep: sweep.csv, sweep_meta.json, runs/<index>/.
# fake_sweep <dir> <params as a Python list>
fake_sweep() {
  "${PY}" - "$1" <<'PY'
import csv, json, os, sys
d = sys.argv[1]
params = ["preset", "pcie.h2d_bandwidth", "aicore.cores"]
metrics = ["simulated_us", "stats.chip0.hbm.bytes"]
rows, i = [], 0
for preset in ["ascend910b", "tiny"]:
    for bw in [16, 32, 64]:
        for cores in [8, 16, 24]:
            us = 10000 / bw + 5000 / cores + (0 if preset == "ascend910b" else 50)
            status, code, m = "ok", "0", [f"{us:.3f}", str(1048576 * cores)]
            if i == 7:
                status, code, m = "failed", "1", ["", ""]
            if i == 12:
                status, code, m = "skipped", "", ["", ""]
            rows.append([str(i), preset, f"{bw}GB/s", str(cores), status, code] + m)
            os.makedirs(os.path.join(d, "runs", str(i)), exist_ok=True)
            i += 1
with open(os.path.join(d, "sweep.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["run"] + params + ["status", "exit_code"] + metrics)
    w.writerows(rows)
with open(os.path.join(d, "sweep_meta.json"), "w") as f:
    json.dump({"params": params, "metrics": metrics, "sweep": "fake.yaml"}, f)
PY
}

expect_error() {  # expect_error <message fragment> <command...>: exit 2 and the message on stderr
  local want="$1"; shift
  local rc=0
  "$@" > out.txt 2> err.txt || rc=$?
  cat err.txt
  [[ ${rc} -eq 2 ]] || { echo "expected exit 2, got ${rc}: $*"; exit 1; }
  grep -qF -- "${want}" err.txt || { echo "expected '${want}' in the message"; exit 1; }
}

case "${CASE}" in
  run)  # a replay's --out directory: every plot rendered by the browser, tables match the files
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --out run > /dev/null
    PYTHONHASHSEED=1 "${NPUSIM}" report run -o page.html | tee report.txt
    grep -q "npusim report: wrote page.html (7 plots," report.txt
    # Self-contained: nothing is fetched (no src/href to another place, no external CSS/JS).
    if grep -Eo '(src|href)="[^"#d][^"]*"' page.html | grep -v '^src="data:image/png;base64,' ; then
      echo "the page refers to an external resource"; exit 1
    fi
    ! grep -Eq '<link|<script src|@import|url\(' page.html
    # Deterministic: a second report (default output path, another string hash seed) is
    # byte-identical.
    PYTHONHASHSEED=2 "${NPUSIM}" report run > /dev/null
    cmp page.html run/report.html
    # msprof's layout (an aclprof session): the same plots from msprof_<stamp>.json and
    # op_summary_<stamp>.csv under PROF_*/mindstudio_profiler_output/.
    mkdir -p prof/PROF_000001_x/mindstudio_profiler_output
    cp run/timeline.json prof/PROF_000001_x/mindstudio_profiler_output/msprof_20261202000000.json
    cp run/op_summary.csv prof/PROF_000001_x/mindstudio_profiler_output/op_summary_20261202000000.csv
    "${NPUSIM}" report prof/PROF_000001_x -o prof.html | grep -q "(7 plots,"
    grep -q "msprof_20261202000000.json: [0-9,]* slices" prof.html
    # With per-pipe tracks (aicore.trace_pipes): a pipe utilisation plot; the pipe tracks are not
    # units (the heat map has the same rows as without them).
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --set aicore.trace_pipes=true \
      --out pipes > /dev/null
    "${NPUSIM}" report pipes --png-dir pipes/png | grep -q "(8 plots,"
    [[ -s pipes/png/plot-pipes-npu-0.png ]]
    grep -q 'busy fraction of each unit that ran something (5 of ' pipes/report.html
    grep -q 'busy fraction of each unit that ran something (5 of ' page.html
    CHROME="$(browser)"
    dom page.html page.dom.html
    # Expected table rows, from the run's own files.
    mapfile -t rows < <("${PY}" - <<'PY'
import collections, csv, json
ops = collections.Counter(r["OP Type"] for r in csv.DictReader(open("run/op_summary.csv")))
for t, n in sorted(ops.items()):
    print(f"--table\nOP Type={t}:count={n}")
ev = json.load(open("run/timeline.json"))
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
hw = {e["pid"] for e in ev if e.get("name") == "process_name" and e["args"]["name"] == "Ascend Hardware"}
tasks = collections.Counter(names[(e["pid"], e["tid"])] for e in ev if e.get("ph") == "X" and e["pid"] in hw)
for s, n in sorted(tasks.items()):
    print(f"--table\nstream={s}:tasks={n}")
print("--table\nmetric=ops run:value=5")
api = collections.Counter(e["name"] for e in ev if e.get("ph") == "X" and e["name"] == "AscendCL@aclnnMul")
print(f"--table\ncall=AscendCL@aclnnMul:count={api['AscendCL@aclnnMul']}")
PY
)
    "${PY}" "${SRC}/tests/tools/report_dom.py" page.dom.html plot-utilisation-npu-0 \
      plot-utilisation-kernels-npu-0 plot-unit-heatmap-npu-0 plot-bandwidth plot-stream-gantt plot-op-breakdown plot-op-pipes \
      "${rows[@]}"
    shot page.html page.png
    "${PY}" "${SRC}/tests/tools/report_dom.py" page.dom.html --screenshot page.png ;;
  sweep)  # a sweep directory: one curve plot per metric and numeric parameter, the runs table
    mkdir sw && fake_sweep sw
    "${NPUSIM}" report sw -o sweep.html | tee report.txt
    grep -q "(4 plots," report.txt
    "${NPUSIM}" report sw -o sweep2.html > /dev/null
    cmp sweep.html sweep2.html
    grep -q '18 runs: 1 failed, 16 ok, 1 skipped' sweep.html
    # --png-dir: the same page, and each plot also as a file with the embedded image's bytes.
    "${NPUSIM}" report sw -o sweep3.html --png-dir png > /dev/null
    cmp sweep.html sweep3.html
    "${PY}" - <<'PY'
import base64, os, re
page = open("sweep.html").read()
imgs = dict(re.findall(r'<img class="plot" id="([^"]+)"[^>]* src="data:image/png;base64,([^"]+)"', page))
assert sorted(f[:-4] for f in os.listdir("png")) == sorted(imgs), (os.listdir("png"), sorted(imgs))
for k, v in imgs.items():
    assert open(f"png/{k}.png", "rb").read() == base64.b64decode(v), k
PY
    CHROME="$(browser)"
    dom sweep.html sweep.dom.html
    "${PY}" "${SRC}/tests/tools/report_dom.py" sweep.dom.html \
      plot-sweep-simulated-us-vs-pcie-h2d-bandwidth plot-sweep-simulated-us-vs-aicore-cores \
      plot-sweep-stats-chip0-hbm-bytes-vs-pcie-h2d-bandwidth \
      plot-sweep-stats-chip0-hbm-bytes-vs-aicore-cores \
      --table "run=7:status=failed" --table "run=0:simulated_us=1250.000" --table "run=3:simulated_us=937.500" \
      --table "metric=simulated_us:min at=run 8, preset=ascend910b, pcie.h2d_bandwidth=64GB/s, aicore.cores=24" \
      --table "metric=stats.chip0.hbm.bytes:max=25,165,824" --table "sweep_meta.json=sweep:value=fake.yaml" \
      --table "run=17:exit_code=0" --table "run=12:status=skipped" --table "metric=simulated_us:runs with a value=16"
    # Only a categorical parameter: one bar per run.
    mkdir cat
    # A parameter with one value is named once, not plotted; npusim sweep's name, description
    # and metric sources are shown.
    printf 'run,preset,param.layers,status,exit_code,simulated_us\n0,ascend910b,4,ok,0,10.5\n1,ascend310p,4,ok,0,20.25\n2,tiny,4,failed,3,\n' \
      > cat/sweep.csv
    cat > cat/sweep_meta.json <<'JSON'
{"name": "presets", "description": "three presets", "params": ["preset", "param.layers"],
 "metrics": ["simulated_us"], "metric_sources": {"simulated_us": "replay_summary.json simulated_us"}}
JSON
    "${NPUSIM}" report cat -o cat.html > /dev/null
    grep -q '<title>npusim sweep report: presets</title>' cat.html
    grep -q 'Same in every finished run: param.layers=4.' cat.html
    dom cat.html cat.dom.html
    "${PY}" "${SRC}/tests/tools/report_dom.py" cat.dom.html plot-sweep-simulated-us-bars \
      --table "run=1:preset=ascend310p" --table "metric=simulated_us:source=replay_summary.json simulated_us" \
      --table "metric=simulated_us:max at=run 1, preset=ascend310p"
    shot sweep.html sweep.png
    "${PY}" "${SRC}/tests/tools/report_dom.py" sweep.dom.html --screenshot sweep.png ;;
  units)  # axes carry units and plain numbers (no offset, no x1e8); needs no browser
    # A sweep in npusim sweep's format: sim_time in ps around 2.878e9 with a 0.0104 % spread
    # (the old page drew it as "+2.878e9" and a gap filling the plot), latency in us.
    mkdir sw
    printf 'run,hbm.bandwidth,status,exit_code,sim_time (ps),latency (us)\n0,1TB/s,ok,0,2878000000,120.5\n1,2TB/s,ok,0,2878300000,80.25\n2,4TB/s,ok,0,2878100000,60\n' > sw/sweep.csv
    cat > sw/sweep_meta.json <<'JSON'
{"name": "units", "params": ["hbm.bandwidth"], "metrics": ["sim_time", "latency"],
 "metric_units": {"sim_time": "ps", "latency": "us"},
 "metric_columns": {"sim_time": "sim_time (ps)", "latency": "latency (us)"}}
JSON
    "${NPUSIM}" report sw -o sw.html > /dev/null
    "${NPUSIM}" replay "${SRC}/tests/tools/add_mul.yaml" --config tiny --out run > /dev/null
    "${NPUSIM}" report run -o run.html > /dev/null
    "${PY}" - <<'PY'
import html, json, re
def plots(page):
    text = open(page, encoding="utf-8").read()
    found = re.findall(r'<img class="plot" id="([^"]+)"[^>]* data-axes="([^"]*)"[^>]* alt="([^"]*)"', text)
    return text, {i: (json.loads(html.unescape(a)), html.unescape(alt)) for i, a, alt in found}
text, sw = plots("sw.html")
axes, alt = sw["plot-sweep-sim-time-vs-hbm-bandwidth"]
assert axes == [{"x": "hbm.bandwidth (TB/s)", "y": "sim_time (ms)", "offset": ""}], axes
assert "It varies by 0.0104 % over the runs: the axis starts at 0." in alt, alt
axes, alt = sw["plot-sweep-latency-vs-hbm-bandwidth"]
assert axes == [{"x": "hbm.bandwidth (TB/s)", "y": "latency (µs)", "offset": ""}], axes
assert "axis starts at 0" not in alt, alt
assert "<th>unit</th>" in text and "<td>sim_time</td><td>ps</td>" in text, "no unit in the extremes table"
text, run = plots("run.html")
assert len(run) == 7, sorted(run)
for pid, (axes, _) in run.items():
    assert all(a["offset"] == "" for a in axes), (pid, axes)
time_axes = [a["x"] for axes, _ in run.values() for a in axes if a["x"].startswith("simulated time")]
assert time_axes and all(x == "simulated time (µs)" for x in time_axes), time_axes
print("units ok:", len(sw), "sweep plots,", len(run), "run plots")
PY
    ;;
  errors)  # bad directories and a missing Python / matplotlib: exit 2 with a message
    expect_error "nope: no such directory" "${NPUSIM}" report nope
    touch afile
    expect_error "afile: not a directory" "${NPUSIM}" report afile
    mkdir empty
    expect_error "empty: not a run directory (no timeline.json, stats.json or op_summary.csv" \
      "${NPUSIM}" report empty
    mkdir nometa && echo "run,status" > nometa/sweep.csv
    expect_error "nometa: has sweep.csv but no sweep_meta.json" "${NPUSIM}" report nometa
    mkdir badmeta && echo "run,status,x" > badmeta/sweep.csv
    echo '{"params": ["p"], "metrics": ["x"]}' > badmeta/sweep_meta.json
    expect_error "badmeta/sweep.csv: no column 'p' (sweep_meta.json names it)" "${NPUSIM}" report badmeta
    mkdir badjson && echo '[{"ph": "X",' > badjson/timeline.json
    expect_error "badjson/timeline.json: cannot read the timeline" "${NPUSIM}" report badjson
    mkdir badstats && echo '[1, 2]' > badstats/stats.json
    expect_error "badstats/stats.json: not a JSON object of statistics" "${NPUSIM}" report badstats
    # Events of unexpected shapes are skipped: a page without plots, exit 0.
    mkdir oddtl
    echo '[{"ph": "M", "name": "process_name", "pid": 1, "args": [1]}, {"ph": "X", "pid": 1, "ts": "a"},
           {"ph": "X", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": 5}, 7]' > oddtl/timeline.json
    "${NPUSIM}" report oddtl | grep -q "(0 plots,"
    mkdir badcsv && echo "a,b" > badcsv/op_summary.csv && echo "1,2" >> badcsv/op_summary.csv
    expect_error "badcsv/op_summary.csv: no column 'OP Type'" "${NPUSIM}" report badcsv
    mkdir okdir && printf 'OP Type,Task Duration(us)\nAdd,1.5\n' > okdir/op_summary.csv
    NPUSIM_PYTHON=/nonexistent/python3 \
      expect_error "cannot run Python 3 (/nonexistent/python3)" "${NPUSIM}" report okdir
    # A Python without matplotlib (an import that fails first on the path).
    mkdir -p nompl/matplotlib && echo 'raise ImportError("no matplotlib here")' > nompl/matplotlib/__init__.py
    PYTHONPATH="${WORK}/nompl" expect_error "needs matplotlib and numpy" "${NPUSIM}" report okdir
    expect_error "cannot write missing-dir/x.html" "${NPUSIM}" report okdir -o missing-dir/x.html
    [[ ! -e okdir/report.html ]]
    # A directory with only an op_summary.csv still makes a page (1 plot), exit 0.
    "${NPUSIM}" report okdir | grep -q "(1 plot," ;;
  *) echo "unknown case ${CASE}"; exit 2 ;;
esac
