#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build the program, run it on three PCIe bandwidths, and check each run against targets.yaml.
#   source <install prefix>/bin/setenv.bash && ./run.sh [WORK_DIR]    (default: this folder)
# Lines that start with "[example]" are this script's; the rest is the tools' own output.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common/build.sh" "$@"  # build in WORK_DIR, cd there

# The failed targets of a JUnit file (`npusim check --junit`), for this script's summary line.
failed_targets() {
  python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
failed = [c.get("name") for c in ET.parse(sys.argv[1]).iter("testcase")
          if c.find("failure") is not None or c.find("error") is not None]
print("; ".join(failed) or "none")
PY
}

check_run() {  # check_run NAME [npusim run options]: run, check, summarise
  local name="$1"; shift
  npusim run "$@" --out "${name}" -- ./build/uploads > /dev/null
  local rc=0
  npusim check "${here}/targets.yaml" "${name}" --junit "${name}.xml" || rc=$?
  echo "[example] ${name}: npusim check exit ${rc}, failed targets: $(failed_targets "${name}.xml")"
}

check_run base                                  # the preset the targets were written on
check_run slow --set pcie.h2d_bandwidth=16GB/s  # slower link: the time targets FAIL (exit 1)
check_run fast --set pcie.h2d_bandwidth=51.2GB/s  # faster: IMPROVED, which passes (exit 0)

# What changed between two runs, largest relative change first.
npusim compare base slow
