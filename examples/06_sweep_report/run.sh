#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build the program, sweep it over four PCIe bandwidths, and make the report page.
#   source <install prefix>/bin/setenv.bash && ./run.sh [WORK_DIR]    (default: this folder)
# Lines that start with "[example]" are this script's; the rest is the tools' own output.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common/build.sh" "$@"  # build in WORK_DIR, cd there
[[ "${work}" == "${here}" ]] || cp "${here}/sweep.yaml" .  # run: ./build/upload is beside it
rm -rf sweep-out report-png

# One `npusim run` per grid point on a local pool of 2 processes; exit 0 = every run ok.
npusim sweep sweep.yaml --out sweep-out -j 2
echo "[example] sweep: every run ok"
cat sweep-out/sweep.csv

# What each run's program printed (runs/<index>/stdout.txt), with the value it ran with.
python3 - <<'PY'
import csv
for row in csv.DictReader(open("sweep-out/sweep.csv")):
    printed = open("sweep-out/runs/%s/stdout.txt" % row["run"]).read().strip()
    print("[example] run %s, pcie.h2d_bandwidth %s: %s"
          % (row["run"], row["pcie.h2d_bandwidth"], printed))
PY

# One self-contained HTML page: the metrics against the bandwidth (open it in a browser).
npusim report sweep-out -o report.html --png-dir report-png
[[ -s report.html ]] && echo "[example] report: report.html"
ls report-png  # each plot also as a PNG file
