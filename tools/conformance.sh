#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Conformance: build and run CANN runtime samples (hicann/runtime, folder example/) unmodified,
# with their own CMakeLists and run.sh, against an npusim install tree.
#
#   tools/conformance.sh --samples <checkout-or-example-dir> --prefix <npusim install prefix> \
#                        [--work DIR] [--only PATTERN] [sample ...]
#
# The samples are copied to a scratch directory first (run.sh scripts write build/ and output
# files beside themselves). Each sample passes when its run.sh exits 0 and its documented success
# marker (if any) is in the output. Prints one line per sample and "N passed, M failed".
set -uo pipefail

samples_dir=""
prefix=""
work=""
only=""
declare -a chosen=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --samples) samples_dir="$2"; shift 2 ;;
    --prefix) prefix="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) chosen+=("$1"); shift ;;
  esac
done

if [[ -z "${samples_dir}" ]]; then
  echo "conformance: no samples checkout given (--samples DIR); skipping"
  exit 0
fi
[[ -d "${samples_dir}/example" ]] && samples_dir="${samples_dir}/example"
if [[ ! -f "${samples_dir}/set_sample_env.sh" ]]; then
  echo "conformance: ${samples_dir} does not look like hicann/runtime's example/ folder" >&2
  exit 2
fi
if [[ -z "${prefix}" || ! -f "${prefix}/bin/setenv.bash" ]]; then
  echo "conformance: --prefix must name an npusim install tree (with bin/setenv.bash)" >&2
  exit 2
fi
prefix="$(cd "${prefix}" && pwd)"
work="${work:-$(mktemp -d /tmp/npusim-conformance.XXXXXX)}"
mkdir -p "${work}"

# sample path | success marker in its output (empty: exit code only; run.sh checks the rest)
read -r -d '' TABLE <<'EOT'
0_quickstart/1_error_handling|After diagnostics are consumed once: peekErr=0, lastErr=0, recentErrMsg=<null>
0_quickstart/2_system_info|Float conversion: 1\.625000 -> 0x3e80 -> 1\.625000
0_quickstart/3_cross_version/0_runtime_compatibility|\[SUCCESS\] Runtime compatibility sample completed successfully
1_basic_features/context/0_context_query|\[SUCCESS\] Context query sample completed successfully
1_basic_features/memory/0_h2h_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/9_multistream_sync_memory|\[SUCCESS\] Memory semantics synchronization across multiple streams is successful
1_basic_features/stream/3_stream_config_query|\[SUCCESS\] Stream config query sample completed successfully
3_memory_advanced/allocator/0_custom_allocator|allocCount=2,? freeCount=2
4_reliability/overflow_detection/0_overflow_detection|Overflow detection sample finished successfully
EOT

rm -rf "${work}/example"
cp -r "${samples_dir}" "${work}/example"

pass=0
fail=0
while IFS='|' read -r sample marker; do
  [[ -z "${sample}" ]] && continue
  if [[ ${#chosen[@]} -gt 0 ]]; then
    keep=0
    for c in "${chosen[@]}"; do [[ "${sample}" == *"${c}"* ]] && keep=1; done
    [[ ${keep} -eq 1 ]] || continue
  fi
  [[ -n "${only}" && "${sample}" != *"${only}"* ]] && continue
  dir="${work}/example/${sample}"
  log="${work}/$(echo "${sample}" | tr '/' '_').log"
  if [[ ! -f "${dir}/run.sh" ]]; then
    echo "FAIL ${sample} (not in this checkout)"
    fail=$((fail + 1))
    continue
  fi
  (
    cd "${dir}" || exit 99
    # A CANN-style environment pointing at npusim, as a user would have after sourcing set_env.sh.
    unset ASCEND_HOME_PATH ASCEND_INSTALL_PATH SOC_VERSION ASCENDC_CMAKE_DIR
    # shellcheck source=/dev/null
    source "${prefix}/set_env.sh"
    timeout 600 bash run.sh
  ) >"${log}" 2>&1
  rc=$?
  if [[ ${rc} -eq 0 && -n "${marker}" ]] && ! grep -Eq "${marker}" "${log}"; then
    rc=98
  fi
  if grep -q "\[SKIP\]" "${log}"; then
    rc=97
  fi
  if [[ ${rc} -eq 0 ]]; then
    echo "PASS ${sample}"
    pass=$((pass + 1))
  else
    echo "FAIL ${sample} (exit ${rc}; log: ${log})"
    tail -n 15 "${log}" | sed 's/^/    | /'
    fail=$((fail + 1))
  fi
done <<<"${TABLE}"

echo "conformance: ${pass} passed, ${fail} failed"
[[ ${fail} -eq 0 ]]
