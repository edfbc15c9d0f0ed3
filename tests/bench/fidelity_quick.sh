#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The fidelity suite's quick subset (npusim_fidelity --quick) on the default preset: it exits 0,
# and prints a table row with a finite simulated value for every quantity of the subset
# (the calibration targets themselves are checked elsewhere).
set -euo pipefail
bin="$1"
out="$("${bin}" --quick)"
printf '%s\n' "${out}"
status=0
# The rows the quick subset measures (quantity column as in bench/fidelity/published.yaml).
for q in "H2D copy bandwidth, 1 KiB" "H2D copy bandwidth, 1 MiB" "D2H copy bandwidth, 1 KiB" \
         "D2H copy bandwidth, 1 MiB" "tiny kernel launch + aclrtSynchronizeStream" \
         "host enqueue cost per kernel launch" "aclrtRecordEvent, host cost" \
         "two events recorded back to back, elapsed" "aclnnMatmul fp16 256^3" \
         "aclnnAdd fp16 bandwidth, 1 Mi elements" "aclnnMatmul fp16 512^3" \
         "P2P copy device 0 -> 1, 1 MiB"; do
  line="$(printf '%s\n' "${out}" | grep -F "| ${q} |" || true)"
  if [[ -z "${line}" ]]; then
    echo "FAIL: no row for '${q}'"; status=1; continue
  fi
  # Column 5 (after the leading empty field) is "simulated": a positive finite number and a unit.
  sim="$(printf '%s\n' "${line}" | awk -F'|' '{print $5}' | awk '{print $1}')"
  if ! [[ "${sim}" =~ ^[0-9]+(\.[0-9]+)?$ ]] || [[ "${sim}" =~ ^0(\.0+)?$ ]]; then
    echo "FAIL: row '${q}' has simulated value '${sim}'"; status=1
  fi
done
printf '%s\n' "${out}" | grep -qE '^fidelity: ([0-9]+) of \1 rows have a finite simulated value$' ||
  { echo "FAIL: not every row finite"; status=1; }
exit "${status}"
