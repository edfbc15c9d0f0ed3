#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Conformance: build and run CANN runtime samples (hicann/runtime, folder example/) unmodified,
# with their own CMakeLists and run.sh, against an npusim install tree; and, with --hccl-samples,
# the HCCL examples (hicann/hccl, folder examples/: 01_point_to_point/*, 02_collectives/*) with
# their own Makefiles (make, then make test) on an 8-device server (NPUSIM_SET soc.num_devices=8).
#
#   tools/conformance.sh [--samples <checkout-or-example-dir>] [--hccl-samples <examples-dir>] \
#                        --prefix <npusim install prefix> [--work DIR] [--only PATTERN] [sample ...]
#
# The samples are copied to a scratch directory first (run.sh scripts write build/ and output
# files beside themselves). Each sample passes when its run.sh exits 0, it does not skip itself
# ("[SKIP]") and its documented success markers (see TABLE) are in the output. Prints one line per
# sample run and "N passed, M failed".
set -uo pipefail

samples_dir=""
hccl_dir=""
prefix=""
work=""
only=""
declare -a chosen=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --samples) samples_dir="$2"; shift 2 ;;
    --hccl-samples) hccl_dir="$2"; shift 2 ;;
    --prefix) prefix="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) chosen+=("$1"); shift ;;
  esac
done

if [[ -z "${samples_dir}" && -z "${hccl_dir}" ]]; then
  echo "conformance: no samples checkout given (--samples DIR, --hccl-samples DIR); skipping"
  exit 0
fi
[[ -n "${samples_dir}" && -d "${samples_dir}/example" ]] && samples_dir="${samples_dir}/example"
if [[ -n "${samples_dir}" && ! -f "${samples_dir}/set_sample_env.sh" ]]; then
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

# One line per run:  <sample path>[ <run.sh arguments>]|<marker>|<marker>...
# The run passes when run.sh exits 0, no "[SKIP]" is printed and every marker matches its output:
# a marker is an extended regex (grep -E, no "|" alternation) that must match some line, or
# "=N:<regex>" that must match exactly N lines. No marker: the exit code (and run.sh) decide.
read -r -d '' TABLE <<'EOT'
0_quickstart/0_hello_cann|Launch aclnnAdd successfully|result\[0\] = 1\.5 \(expected: 1\.5\)|result\[7\] = 12\.0 \(expected: 12\.0\)|Sample run successfully!
0_quickstart/1_error_handling|After diagnostics are consumed once: peekErr=0, lastErr=0, recentErrMsg=<null>
0_quickstart/2_system_info|Float conversion: 1\.625000 -> 0x3e80 -> 1\.625000
0_quickstart/3_cross_version/0_runtime_compatibility|\[SUCCESS\] Runtime compatibility sample completed successfully
0_quickstart/4_custom_kernel_launch|Sample run successfully with <<<>>> kernel call!
1_basic_features/context/0_context_query|\[SUCCESS\] Context query sample completed successfully
1_basic_features/device/0_device_normal|result\[0\] is: 1\.200000|result\[3\] is: 5\.400000|result\[7\] is: 10\.600000|Run the device_normal sample successfully\.
1_basic_features/device/1_device_multi_thread|=10:Result: hostDst\[[0-9]+\]: ([0-9.]+) Expected value: \1$|hostDst\[9\]: 18\.000000|Run the device_multi_thread sample successfully
1_basic_features/device/2_device_P2P|Device 0 to device 1 memcpy success\.|Device 1 to host memcpy success\.|The data read from the memory is -?[0-9]+, verify success!|Run the device_P2P sample successfully\.
1_basic_features/event/0_event_status|After create event, current event status is 0\.|After record but before synchronize, current event status is 0\.|After synchronize, current event status is 1\.|The answer is 1\.|Resource cleanup completed
1_basic_features/event/1_event_timestamp|After completing the short task, the answer is 0\.|After completing the long task, the answer is 1\.|=2:The short task consume time [0-9.]+ ms|Resource cleanup completed
1_basic_features/memory/0_h2h_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/1_h2d_sync_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/2_h2d_async_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/3_d2h_sync_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/4_d2h_async_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/5_d2d_sync_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/6_d2d_async_memory_copy|\[SUCCESS\] Memory copy successfully
1_basic_features/memory/9_multistream_sync_memory|\[SUCCESS\] Memory semantics synchronization across multiple streams is successful
1_basic_features/stream/0_simple_stream|through the default stream, the current result is: 1\.|through the created stream, the current result is: 2\.|stream status is: 0\.|After loop, the current result is: 3002\.|Resource cleanup completed
1_basic_features/stream/1_stream_with_failure_mode|=2:Operation failed: aclrtSynchronizeStream\(stream\) returned error code 507035$|Without failure mode, the result is 2\.|After set failure mode, the current result is: 1\.|aclrtStreamStop returned 0\.|aclrtSynchronizeStream\(after stop\) returned 507000\.|aclrtStreamAbort returned 0\.|aclrtSynchronizeStream\(after abort\) returned 507035 after stream abort, which is expected\.|Resource cleanup completed\.|Run the stream_with_failure_mode sample successfully\.
1_basic_features/stream/3_stream_config_query|\[SUCCESS\] Stream config query sample completed successfully
2_advanced_features/built_in_task/0_reduce_task|^Reduce SUM result\[0\] = 2\.000000$|^Reduce SUM result\[1\] = 4\.000000$|^Reduce SUM result\[2\] = 6\.000000$|^Reduce SUM result\[3\] = 8\.000000$|Sample Run Successfully\.
2_advanced_features/built_in_task/1_random_num_task|Gen normal distribution random num, data type: float|Gen truncated normal distribution random num, data type: BF16|Gen uniform distribution random num, data type: FP16|Gen uniform distribution random num, data type: INT32|Gen dropout bitmask, output data type: UINT8|=25:^Random result\[[0-4]\] = |Sample Run Successfully\.
2_advanced_features/callback/0_simple_callback|This callback before task, result: user data is: 520\.|Hostfunc executed in subscribed thread, user data is: 520\.|=5:This callback after task and loop five times, result: user data is: 520\.|After assigning the task, the current int is: [0-9]+\.|Report callback thread exit|Hostfunc processing thread exit
2_advanced_features/callback/1_callback_hostfunc|Hostfunc callback!!!|After assigning the task through the created stream, the current result is: 1\.|Resource cleanup completed\.
2_advanced_features/callback/2_callback_exception|Begin an easy task and an error task|The last task id is: [0-9]+\.|Exception occurred, callback function\.|The error task id is [0-9]+\.|The error stream id is [0-9]+\.|The error thread id is [0-9]+\.|The error device id is 0\.|The error code id is 507035\.|aclrtSynchronizeStream\(stream_\) returned error code 507035|=0:After error still callback|Thread exit|Run the callback_exception sample successfully\.
2_advanced_features/kernel/0_launch_kernel --run-mode simple|runs in simple mode|Run the launch_kernel sample successfully|\[SUCCESS\] result correct
2_advanced_features/kernel/0_launch_kernel --run-mode placeholder|runs in placeholder mode|Run the launch_kernel sample successfully|\[SUCCESS\] result correct
2_advanced_features/kernel/1_launch_kernel_with_reslimit|=8:^Hello World$|Launch kernels under resource limits successfully
2_advanced_features/label/0_simple_label|Persistent label stream created\.|Persistent label stream bound to the model runtime instance\.|Submitted switch-label task with branch index 1\.|Set label 1 on the persistent stream\.|Model runtime instance build finished\.|Switch label executed successfully with branch index 1\.|Run the simple_label sample successfully\.
2_advanced_features/model_ri/0_simple_model|execute model, loop count: 4\.|=4:The vector data is: 6\.4000  8\.4000  10\.4000  12\.4000  14\.4000  16\.4000  18\.4000  20\.4000
2_advanced_features/model_ri/1_model_update|Execute model, loop count: 1\.|The vector data is: 5\.4000  6\.4000  7\.4000  8\.4000  9\.4000  10\.4000  11\.4000  12\.4000|Execute model, loop count: 2\.|Update alpha value of aclnnAdd|The vector data is: 7\.6000  8\.6000  9\.6000  10\.6000  11\.6000  12\.6000  13\.6000  14\.6000
2_advanced_features/model_ri/2_model_switch|After executing, print data1\.|=2:The vector data is: 3\.4000  3\.4000  3\.4000  3\.4000  3\.4000  3\.4000  3\.4000  3\.4000|The vector data is: 0\.0000  0\.0000  0\.0000  0\.0000  0\.0000  0\.0000  0\.0000  0\.0000|The vector data is: 5\.4000  5\.4000  5\.4000  5\.4000  5\.4000  5\.4000  5\.4000  5\.4000|After second execution, print data2\.|The vector data is: 4\.4000  4\.4000  4\.4000  4\.4000  4\.4000  4\.4000  4\.4000  4\.4000
2_advanced_features/model_ri/3_cond_model|IF true branch result:|IF false branch result:|The vector data is: 1\.2500  2\.5000  3\.7500  5\.0000  6\.2500  7\.5000  8\.7500  10\.0000|IF condition PASSED|WHILE single iteration result:|WHILE condition PASSED|SWITCH case 0 result:|=3:The vector data is: 1\.5000  3\.0000  4\.5000  6\.0000  7\.5000  9\.0000  10\.5000  12\.0000|SWITCH condition PASSED|All tests PASSED
2_advanced_features/model_ri/4_model_sync_external|Scenario 1: Stream Record \+ Graph Wait External|Scenario 2: Graph Record External \+ Stream Wait|Scenario 3: Graph1 Record External \+ Graph2 Wait External|=3:Check result success\.
3_memory_advanced/allocator/0_custom_allocator|allocCount=2,? freeCount=2
3_memory_advanced/host_register/0_simple_zero_copy|Verified [0-9]+ FP16 additions through mapped Host memory|Run the simple_zero_copy sample successfully
3_memory_advanced/managed_memory/0_uvm_allocate|Run the uvm_allocate sample successfully|\[SUCCESS\] result correct
4_reliability/overflow_detection/0_overflow_detection|Overflow detection sample finished successfully
EOT

# The HCCL examples: <path under examples/>|<marker>... (markers as in TABLE), taken from each
# example's README output: the device count line and every rank's output line, exactly once.
read -r -d '' HCCL_TABLE <<'EOT'
01_point_to_point/01_send_recv|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 1, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 3, output: \[ 2 2 2 2 2 2 2 2 \]$|=1:^rankId: 5, output: \[ 4 4 4 4 4 4 4 4 \]$|=1:^rankId: 7, output: \[ 6 6 6 6 6 6 6 6 \]$|=4:^rankId: 
01_point_to_point/02_batch_send_recv_ring|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 7 7 7 7 7 7 7 7 \]$|=1:^rankId: 1, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 2, output: \[ 1 1 1 1 1 1 1 1 \]$|=1:^rankId: 3, output: \[ 2 2 2 2 2 2 2 2 \]$|=1:^rankId: 4, output: \[ 3 3 3 3 3 3 3 3 \]$|=1:^rankId: 5, output: \[ 4 4 4 4 4 4 4 4 \]$|=1:^rankId: 6, output: \[ 5 5 5 5 5 5 5 5 \]$|=1:^rankId: 7, output: \[ 6 6 6 6 6 6 6 6 \]$|=8:^rankId: 
02_collectives/01_allreduce|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 1, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 2, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 3, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 4, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 5, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 6, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 7, output: \[ 0 8 16 24 32 40 48 56 \]$|=8:^rankId: 
02_collectives/02_broadcast|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 1, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 2, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 3, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 4, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 5, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 6, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 7, output: \[ 0 1 2 3 4 5 6 7 \]$|=8:^rankId: 
02_collectives/03_allgather|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 1, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 2, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 3, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 4, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 5, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 6, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 7, output: \[ 0 1 2 3 4 5 6 7 \]$|=8:^rankId: 
02_collectives/04_reduce_scatter|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 \]$|=1:^rankId: 1, output: \[ 8 \]$|=1:^rankId: 2, output: \[ 16 \]$|=1:^rankId: 3, output: \[ 24 \]$|=1:^rankId: 4, output: \[ 32 \]$|=1:^rankId: 5, output: \[ 40 \]$|=1:^rankId: 6, output: \[ 48 \]$|=1:^rankId: 7, output: \[ 56 \]$|=8:^rankId: 
02_collectives/05_reduce|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 8 16 24 32 40 48 56 \]$|=1:^rankId: 1, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 2, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 3, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 4, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 5, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 6, output: \[ 0 0 0 0 0 0 0 0 \]$|=1:^rankId: 7, output: \[ 0 0 0 0 0 0 0 0 \]$|=8:^rankId: 
02_collectives/06_alltoall|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 1, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 2, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 3, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 4, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 5, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 6, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 7, output: \[ 0 1 2 3 4 5 6 7 \]$|=8:^rankId: 
02_collectives/07_alltoallv|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 1, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 2, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 3, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 4, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 5, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 6, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 7, output: \[ 0 1 2 3 4 5 6 7 \]$|=8:^rankId: 
02_collectives/08_alltoallvc|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 1, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 2, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 3, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 4, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 5, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 6, output: \[ 0 1 2 3 4 5 6 7 \]$|=1:^rankId: 7, output: \[ 0 1 2 3 4 5 6 7 \]$|=8:^rankId: 
02_collectives/09_scatter|=1:^Found 8 NPU device\(s\) available$|=1:^rankId: 0, output: \[ 0 \]$|=1:^rankId: 1, output: \[ 1 \]$|=1:^rankId: 2, output: \[ 2 \]$|=1:^rankId: 3, output: \[ 3 \]$|=1:^rankId: 4, output: \[ 4 \]$|=1:^rankId: 5, output: \[ 5 \]$|=1:^rankId: 6, output: \[ 6 \]$|=1:^rankId: 7, output: \[ 7 \]$|=8:^rankId: 
EOT

if [[ -n "${samples_dir}" ]]; then
  rm -rf "${work}/example"
  cp -r "${samples_dir}" "${work}/example"
fi

# Samples' scripts (kernel/0, managed_memory/0) run `python3` with numpy. When the python3 on PATH
# lacks numpy (e.g. a pyenv shim) but Debian's python3 (python3-numpy) has it, put Debian's first.
if ! python3 -c "import numpy" >/dev/null 2>&1 && /usr/bin/python3 -c "import numpy" >/dev/null 2>&1
then
  mkdir -p "${work}/bin"
  ln -sf /usr/bin/python3 "${work}/bin/python3"
  export PATH="${work}/bin:${PATH}"
fi

# check_markers <log> <marker>... : prints the first marker that does not hold; 1 if any.
check_markers() {
  local log="$1" m n want got
  shift
  for m in "$@"; do
    if [[ "${m}" =~ ^=([0-9]+):(.*)$ ]]; then
      want="${BASH_REMATCH[1]}"
      got="$(grep -Ec -- "${BASH_REMATCH[2]}" "${log}")"
      if [[ "${got}" -ne "${want}" ]]; then
        echo "expected ${want} lines matching '${BASH_REMATCH[2]}', found ${got}"
        return 1
      fi
    elif ! grep -Eq -- "${m}" "${log}"; then
      echo "missing marker '${m}'"
      return 1
    fi
  done
  return 0
}

pass=0
fail=0

# HCCL examples: built with their Makefile (g++ ... -lhccl -lascendcl) and run by `make test`.
if [[ -n "${hccl_dir}" ]]; then
  [[ -d "${hccl_dir}/examples" ]] && hccl_dir="${hccl_dir}/examples"
  if [[ ! -d "${hccl_dir}/02_collectives" ]]; then
    echo "conformance: ${hccl_dir} does not look like hicann/hccl's examples/ folder" >&2
    exit 2
  fi
  rm -rf "${work}/hccl-examples"
  cp -r "${hccl_dir}" "${work}/hccl-examples"
  while IFS= read -r line; do
    [[ -z "${line}" ]] && continue
    IFS='|' read -r -a fields <<<"${line}"
    entry="${fields[0]}"
    markers=("${fields[@]:1}")
    if [[ ${#chosen[@]} -gt 0 ]]; then
      keep=0
      for c in "${chosen[@]}"; do [[ "${entry}" == *"${c}"* ]] && keep=1; done
      [[ ${keep} -eq 1 ]] || continue
    fi
    [[ -n "${only}" && "${entry}" != *"${only}"* ]] && continue
    dir="${work}/hccl-examples/${entry}"
    log="${work}/hccl_$(echo "${entry}" | tr '/ ' '__').log"
    if [[ ! -f "${dir}/Makefile" ]]; then
      echo "FAIL hccl/${entry} (not in this checkout)"
      fail=$((fail + 1))
      continue
    fi
    (
      cd "${dir}" || exit 99
      unset ASCEND_HOME_PATH ASCEND_INSTALL_PATH SOC_VERSION ASCENDC_CMAKE_DIR
      # shellcheck source=/dev/null
      source "${prefix}/set_env.sh"
      export NPUSIM_SET="soc.num_devices=8${NPUSIM_SET:+;${NPUSIM_SET}}"
      make && timeout 600 make test
    ) >"${log}" 2>&1
    rc=$?
    why="exit ${rc}"
    if [[ ${rc} -eq 0 ]] && ! why="$(check_markers "${log}" "${markers[@]}")"; then
      rc=98
    fi
    if [[ ${rc} -eq 0 ]]; then
      echo "PASS hccl/${entry}"
      pass=$((pass + 1))
    else
      echo "FAIL hccl/${entry} (${why}; log: ${log})"
      tail -n 15 "${log}" | sed 's/^/    | /'
      fail=$((fail + 1))
    fi
  done <<<"${HCCL_TABLE}"
fi

while IFS= read -r line; do
  [[ -z "${line}" ]] && continue
  IFS='|' read -r -a fields <<<"${line}"
  entry="${fields[0]}"
  markers=("${fields[@]:1}")
  sample="${entry%% *}"
  args=""
  [[ "${entry}" == *" "* ]] && args="${entry#* }"
  if [[ ${#chosen[@]} -gt 0 ]]; then
    keep=0
    for c in "${chosen[@]}"; do [[ "${entry}" == *"${c}"* ]] && keep=1; done
    [[ ${keep} -eq 1 ]] || continue
  fi
  [[ -n "${only}" && "${entry}" != *"${only}"* ]] && continue
  dir="${work}/example/${sample}"
  log="${work}/$(echo "${entry}" | tr '/ ' '__').log"
  if [[ ! -f "${dir}/run.sh" ]]; then
    echo "FAIL ${entry} (not in this checkout)"
    fail=$((fail + 1))
    continue
  fi
  (
    cd "${dir}" || exit 99
    # A CANN-style environment pointing at npusim, as a user would have after sourcing set_env.sh.
    unset ASCEND_HOME_PATH ASCEND_INSTALL_PATH SOC_VERSION ASCENDC_CMAKE_DIR
    # shellcheck source=/dev/null
    source "${prefix}/set_env.sh"
    # shellcheck disable=SC2086
    timeout 600 bash run.sh ${args}
  ) >"${log}" 2>&1
  rc=$?
  why="exit ${rc}"
  if [[ ${rc} -eq 0 ]] && ! why="$(check_markers "${log}" "${markers[@]}")"; then
    rc=98
  fi
  if grep -q "\[SKIP\]" "${log}"; then
    rc=97
    why="the sample skipped itself ([SKIP])"
  fi
  if [[ ${rc} -eq 0 ]]; then
    echo "PASS ${entry}"
    pass=$((pass + 1))
  else
    echo "FAIL ${entry} (${why}; log: ${log})"
    tail -n 15 "${log}" | sed 's/^/    | /'
    fail=$((fail + 1))
  fi
done <<<"${samples_dir:+${TABLE}}"

echo "conformance: ${pass} passed, ${fail} failed"
[[ ${fail} -eq 0 ]]
