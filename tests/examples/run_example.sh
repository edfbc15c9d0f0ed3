#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run_example.sh <install prefix> <example dir> <work dir>: runs the example as its README says
# (source setenv.bash, run.sh WORK) and compares its standard output with expected_output.txt.
set -euo pipefail
PREFIX="$1"; EXAMPLE="$2"; WORK="$3"
rm -rf "${WORK}"; mkdir -p "${WORK}"
# shellcheck source=/dev/null
source "${PREFIX}/bin/setenv.bash"
export NPUSIM_HANG_TIMEOUT=5
unset NPUSIM_CONFIG NPUSIM_SET NPUSIM_OUT  # the examples choose their own chip and outputs
if [[ "${NPUSIM_SANITIZER:-}" == asan ]]; then  # as tests/e2e/e2e.sh: instrumented library
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
fi
start=$(date +%s.%N)
rc=0
bash "${EXAMPLE}/run.sh" "${WORK}" > "${WORK}/output.txt" 2> "${WORK}/stderr.txt" || rc=$?
printf 'example %s: run.sh exit %d in %.1f s (wall)\n' "$(basename "${EXAMPLE}")" "${rc}" \
  "$(echo "$(date +%s.%N) - ${start}" | bc)"
if [[ ${rc} -ne 0 ]]; then
  echo "--- stdout"; cat "${WORK}/output.txt"; echo "--- stderr"; cat "${WORK}/stderr.txt"
  exit 1
fi
filter=()
if [[ -f "${EXAMPLE}/expected_output.filter" ]]; then
  filter=(--filter "${EXAMPLE}/expected_output.filter")
fi
python3 "$(dirname "${BASH_SOURCE[0]}")/compare_output.py" "${EXAMPLE}/expected_output.txt" \
  "${WORK}/output.txt" "${filter[@]}"
