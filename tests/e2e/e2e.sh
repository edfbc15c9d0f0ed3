#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end checks against the INSTALLED tree, the way a CANN developer uses it: programs are
# built with plain g++ in a clean scratch directory, linked with -lacl_rt or -lascendcl, and run
# (directly or via `npusim run`).   e2e.sh <prefix> <source dir> <scratch dir> <case>
set -euo pipefail
PREFIX="$1"; SRC="$2"; WORK="$3"; CASE="$4"
rm -rf "${WORK}"; mkdir -p "${WORK}"; cd "${WORK}"
# shellcheck source=/dev/null
source "${PREFIX}/bin/setenv.bash"
export NPUSIM_HANG_TIMEOUT=5
# shellcheck source=tests/e2e/sanitizer_env.sh
source "${SRC}/sanitizer_env.sh"  # tools/dev.sh sanitize: the ASan runtime first
KERNEL_PROJECT="$(dirname "${WORK}")/kernel_build"  # built by the kernel_build case

build() {  # build <name> [lib...] (default: acl_rt)
  local name="$1" libs=() l; shift
  for l in "${@:-acl_rt}"; do libs+=("-l${l}"); done
  g++ -std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0 -I"${PREFIX}/include" \
      "${SRC}/${name}.cpp" -L"${PREFIX}/lib64" "${libs[@]}" -pthread -o "${name}"
}

build_samples_way() {  # build_samples_way <name>: as CANN's DVPP samples link (lib64/stub)
  g++ -std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0 -I"${PREFIX}/include" \
      "${SRC}/$1.cpp" -L"${PREFIX}/lib64/stub" -lascendcl -lacl_dvpp -pthread -o "$1"
}

media_libs() {  # media_libs <ELF>: its NEEDED media libraries (none expected of the runtime)
  readelf -d "$1" | grep NEEDED | grep -E 'lib(av|sw|jpeg|png|x26|jxl|hwy)' || true
}

json_check() {  # json_check <file> <python expression over `d` that must be true>
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if not eval(sys.argv[2]):
    sys.exit("check failed: " + sys.argv[2])
PY
}

case "${CASE}" in
  copy_timing) build copy_timing; NPUSIM_CONFIG=tiny ./copy_timing ;;
  hccl_timing)  # HCCL on 8 simulated 910B chips (libhccl.so: the same runtime)
    build hccl_timing hccl; NPUSIM_SET="soc.num_devices=8" NPUSIM_OUT=out ./hccl_timing
    # The broadcast's pull: one HCCS copy of 1.5 us + 64 MiB / 56 GB/s, on rank 1's HCCS channel.
    json_check out/timeline.json \
      "any(e.get('ph')=='X' and e.get('name')=='HcclBroadcast Memcpy' and \
           abs(e['dur'] - (1.5 + 67108864 / 56e9 * 1e6)) < 0.002 for e in d)"
    # Ranks' notify records are linked to the waits they release on other chips by arrows.
    json_check out/timeline.json \
      "(lambda s, f: len(s) > 0 and len(f) > 0 and all(e['id'] in s for e in f) and \
         all(e['name'] == 'DeviceToDevice' + e['id'] for e in f) and \
         any(s[e['id']]['pid'] != e['pid'] for e in f))( \
         {e['id']: e for e in d if e.get('ph') == 's' and e.get('cat') == 'DeviceToDevice'}, \
         [e for e in d if e.get('ph') == 'f' and e.get('cat') == 'DeviceToDevice'])" ;;
  overlap) build overlap; NPUSIM_CONFIG=tiny ./overlap ;;
  model_replay)
    build model_replay
    NPUSIM_CONFIG=tiny NPUSIM_SET="scheduler.doorbell=500ns;scheduler.dispatch=200ns;scheduler.completion=300ns;scheduler.sync_task=100ns;host.launch_call=2us" \
      ./model_replay ;;
  p2p_timing)  # a copy between two devices over HCCS: time, data, the HCCS timeline and stats
    build p2p_timing
    npusim run --config tiny --set soc.num_devices=2 --out out -- ./p2p_timing
    json_check out/timeline.json \
      "any(e.get('ph')=='M' and e.get('name')=='process_name' and e['args']['name']=='HCCS' for e in d) and \
       any(e.get('ph')=='X' and e.get('name')=='MEMCPY_P2P' for e in d)"
    json_check out/stats.json "d['system']['hccs']['0_to_1']['bytes']['value'] == 64 * 2**20" ;;
  api_misc) build api_misc; ./api_misc ;;
  attention)  # fused attention operators (aclnn, MIX cube + vector kernels) on the chip
    build attention opapi; NPUSIM_OUT=out ./attention
    python3 - <<'PY'
import csv
rows = list(csv.DictReader(open("out/op_summary.csv")))
fa = [r for r in rows if r["OP Type"] == "FlashAttentionScore"]
ifa = [r for r in rows if r["OP Type"] == "IncreFlashAttention"]
assert len(fa) == 3 and len(ifa) == 1, rows
for r in fa + ifa:
    assert r["Task Type"] == "MIX_AIC", r
    assert float(r["aic_mac_time(us)"]) > 0 and float(r["aiv_vec_time(us)"]) > 0, r
# S = 512 vs 128 (causal): 10 times the key tiles of the 128-row query tiles, spread over more
# cores: longer, and more than 4 times the cube core cycles in all.
assert float(fa[1]["Task Duration(us)"]) > float(fa[0]["Task Duration(us)"]), fa
assert float(fa[1]["aic_total_cycles"]) > 4 * float(fa[0]["aic_total_cycles"]), fa
# Causal skips the key tiles above the diagonal: 10 of the 16 (query, key) tile pairs per head:
# 10/16 of the cube work, and fewer cycles in all.
mac = float(fa[1]["aic_mac_time(us)"]) / float(fa[2]["aic_mac_time(us)"])
assert 0.6 < mac < 0.65, (mac, fa)
assert float(fa[1]["aic_total_cycles"]) < float(fa[2]["aic_total_cycles"]), fa
PY
    ;;
  aclnn_elementwise)  # aclnn Add / Gelu on the 910B: kernel time from the pipes, HBM-bound
    g++ -std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0 -I"${PREFIX}/include" \
        "${SRC}/aclnn_elementwise.cpp" -L"${PREFIX}/lib64" -lopapi -lacl_rt -pthread \
        -o aclnn_elementwise
    NPUSIM_OUT=out ./aclnn_elementwise
    python3 - out/op_summary.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
add = [r for r in rows if r["OP Type"] == "Add"]
gelu = [r for r in rows if r["OP Type"] == "Gelu"]
# The operator's instance name and tensors (models/op_info.h): 4M-element FLOAT16 vectors.
assert add[0]["Op Name"] == "aclnnAdd_AddAiCore_Add", add[0]
assert gelu[0]["Op Name"] == "aclnnGelu_GeluAiCore_Gelu", gelu[0]
assert (add[0]["Input Shapes"], add[0]["Input Data Types"], add[0]["Input Formats"]) == \
    ("4194304;4194304", "FLOAT16;FLOAT16", "ND;ND"), add[0]
assert (add[0]["Output Shapes"], add[0]["Output Data Types"], add[0]["Output Formats"]) == \
    ("4194304", "FLOAT16", "ND"), add[0]
# 4M FLOAT16: the two inputs come from HBM at its sustained 0.89 x 1.6 TB/s; the output stays in
# the 192 MiB write-back L2 (no eviction yet).
bound = 2 * 8 * 2**20 / (0.89 * 1.6e12) * 1e6
ok = len(add) == 2 and len(gelu) == 1 and int(add[0]["Block Num"]) == 48
ok = ok and bound <= float(add[0]["aiv_time(us)"]) <= 1.1 * bound
ok = ok and float(add[0]["aiv_mte2_ratio"]) > 0.8  # the copies in dominate
ok = ok and float(gelu[0]["aiv_vec_time(us)"]) > 10 * float(add[0]["aiv_vec_time(us)"])
if not ok:
    sys.exit("op_summary.csv does not show HBM-bound element-wise kernels:\n" + open(sys.argv[1]).read())
PY
    ;;
  aclnn_shape)  # shape-family operators on the chip: results, and op time grows with size
    build aclnn_shape opapi; NPUSIM_OUT=out ./aclnn_shape
    python3 - out/op_summary.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ops = {}
for r in rows:
    ops.setdefault(r['OP Type'], []).append(r)
for name in ('Transpose', 'MaxPool2dWithIndices', 'AdaptiveAvgPool2d', 'Embedding',
             'RotaryPositionEmbedding'):
    small, large = ops[name]
    assert small['Task Type'] == 'AI_VECTOR_CORE', name
    assert float(large['Task Duration(us)']) > float(small['Task Duration(us)']), name
    assert float(large['aiv_mte2_time(us)']) > 0 and float(large['aiv_mte3_time(us)']) > 0, name
    assert int(large['Block Num']) > 1, name
for name in ('Transpose', 'MaxPool2dWithIndices', 'AdaptiveAvgPool2d', 'RotaryPositionEmbedding'):
    assert float(ops[name][1]['aiv_vec_time(us)']) > 0, name
PY
    ;;
  ascendcl)  # linking libascendcl.so alone gives the whole runtime
    build copy_timing ascendcl; NPUSIM_CONFIG=tiny ./copy_timing ;;
  aclnn_matmul)  # the matmul family's cube kernels on the simulated chip (results checked inside)
    build aclnn_matmul
    npusim run --out out -- ./aclnn_matmul
    python3 - out/op_summary.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
mm = [r for r in rows if r["OP Type"] == "MatMul"]
assert len(mm) == 2, mm
small, large = (float(r["Task Duration(us)"]) for r in mm)
assert large > 1.2 * small, (small, large)  # 8x the work, spread over more of the cube cores
for r in mm:
    assert float(r["aic_mac_time(us)"]) > 0 and float(r["aic_mte2_time(us)"]) > 0, r
    assert float(r["aic_mte1_time(us)"]) > 0 and float(r["aic_fixpipe_time(us)"]) > 0, r
names = [r["Op Name"] for r in rows]
assert names[-2:] == ["aclnnConvolution_Im2colAiCore_Im2col",
                      "aclnnConvolution_Conv2dMatMulAiCore_Conv2dMatMul"], names
assert all(r["Input Shapes"] != "N/A" and r["Output Data Types"] != "N/A" for r in rows), rows
assert rows[-2]["aiv_time(us)"] != "N/A" and rows[-1]["aicore_time(us)"] != "N/A", rows[-2:]
PY
    ;;
  c_header)  # the headers are C too
    printf '#include "acl/acl.h"\nint main(void){ return aclrtGetSocName() ? 0 : 1; }\n' > c.c
    gcc -std=c99 -Wall -Werror -I"${PREFIX}/include" c.c -L"${PREFIX}/lib64" -lacl_rt -o c && ./c
    printf '#include "hccl/hccl.h"\nint main(void){ return HcclGetErrorString(HCCL_E_PARA) ? 0 : 1; }\n' > h.c
    gcc -std=c99 -Wall -Werror -I"${PREFIX}/include" h.c -L"${PREFIX}/lib64" -lhccl -o h && ./h ;;
  outputs)  # timeline, stats and effective config written beside the run
    build copy_timing
    npusim run --config tiny --set pcie.h2d_bandwidth=10GB/s --out out -- ./copy_timing
    json_check out/timeline.json \
      "any(e.get('ph')=='M' and e.get('name')=='thread_name' and e['args']['name'].startswith('Stream') for e in d) and \
       any(e.get('ph')=='X' and e.get('name','').startswith('AscendCL@aclrtMemcpyAsync') for e in d) and \
       any(e.get('ph')=='s' for e in d) and any(e.get('ph')=='f' for e in d)"
    json_check out/stats.json "len(d) > 0"
    grep -q "h2d_bandwidth: 10GB/s" out/config.yaml ;;
  callbacks)  # host callbacks with a report thread polling in wall time: identical timelines
    build callbacks
    for run in 1 2 3; do NPUSIM_CONFIG=tiny NPUSIM_OUT=run${run} ./callbacks; done
    cmp run1/timeline.json run2/timeline.json
    cmp run1/timeline.json run3/timeline.json
    json_check run1/timeline.json \
      "sum(1 for e in d if e.get('ph')=='X' and e.get('name')=='Callback')==3 and \
       sum(1 for e in d if e.get('ph')=='X' and e.get('name')=='HostFunc')==1 and \
       sum(1 for e in d if e.get('ph')=='X' and e.get('name')=='AscendCL@aclrtProcessReport')==3" ;;
  profiling)  # aclprof + mstx + securec as CANN programs link them; deterministic outputs
    g++ -std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0 -I"${PREFIX}/include" \
        "${SRC}/profiling.cpp" -L"${PREFIX}/lib64" -lmsprofiler -lc_sec -lopapi -lascendcl \
        -o profiling
    for run in 1 2; do
      mkdir -p run${run} && (cd run${run} && NPUSIM_CONFIG=tiny NPUSIM_OUT=out ../profiling)
    done
    # Runs 3 and 4: aclprof alone (no output directory): the PROF_ folder is self-contained.
    for run in 3 4; do mkdir -p run${run} && (cd run${run} && NPUSIM_CONFIG=tiny ../profiling); done
    cmp run1/out/timeline.json run2/out/timeline.json
    cmp run1/out/msprof_tx.csv run2/out/msprof_tx.csv
    session=run1/prof/PROF_000001_npusim/mindstudio_profiler_output
    cmp run1/out/msprof_tx.csv "${session}/msprof_tx_000001.csv"
    test -s "${session}/msprof_000001.json" && test -s "${session}/op_summary_000001.csv"
    diff -r run3/prof run4/prof
    [[ ! -e run3/out ]]
    python3 "${SRC}/check_prof_session.py" run3/prof/PROF_000001_npusim
    # Markers (zero length) and ranges on the host track, at simulated times: the h2d range
    # holds the synchronous copy's span.
    json_check run1/out/timeline.json \
      "(lambda x: x('begin')['dur'] == 0 and x('h2d')['dur'] > 0 and x('d2h')['dur'] > 0 and \
         x('begin')['ts'] <= x('h2d')['ts'] < x('d2h')['ts'] and \
         x('h2d')['ts'] <= x('AscendCL@aclrtMemcpy')['ts'] and \
         x('AscendCL@aclrtMemcpy')['ts'] + x('AscendCL@aclrtMemcpy')['dur'] <= \
           x('h2d')['ts'] + x('h2d')['dur'])( \
         lambda n: next(e for e in d if e.get('ph') == 'X' and e.get('name') == n))"
    grep -q '^marker,default,begin,0,' run1/out/msprof_tx.csv
    grep -q '^start_end,copies,h2d,0,' run1/out/msprof_tx.csv
    grep -q '^push_pop,default,d2h,0,' run1/out/msprof_tx.csv ;;
  rtc)  # aclrtc: a kernel compiled at run time by bin/npusim-asc, loaded and launched
    build rtc ascendcl acl_rtc; ./rtc > rtc.txt; grep -qx 'rtc ok' rtc.txt ;;
  tdt)  # TDT channel + routed queues between two threads: values checked, 3 identical timelines
    g++ -std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0 -I"${PREFIX}/include" \
        "${SRC}/tdt.cpp" -L"${PREFIX}/lib64" -lacl_tdt_channel -lacl_tdt_queue -lascendcl -pthread \
        -o tdt
    for run in 1 2 3; do NPUSIM_CONFIG=tiny NPUSIM_OUT=run${run} ./tdt; done
    cmp run1/timeline.json run2/timeline.json
    cmp run1/timeline.json run3/timeline.json
    # Every 1 MiB dataset crosses the host link once each way, taking simulated time (each copy
    # shows on its stream's track and on the PCIe unit's track).
    json_check run1/timeline.json \
      "(lambda x: len(x('TDT_SEND_H2D')) == 16 and len(x('TDT_RECV_D2H')) == 16 and \
         len(x('TDT_ENQUEUE_H2D')) == 16 and len(x('TDT_DEQUEUE_D2H')) == 16 and \
         all(e['dur'] > 0 for e in x('TDT_SEND_H2D') + x('TDT_RECV_D2H')))( \
         lambda n: [e for e in d if e.get('ph') == 'X' and e.get('name') == n])" ;;
  threads)  # one host thread per device, racing in wall time: 10 identical timelines and stats
    build threads
    for run in 1 2 3 4 5 6 7 8 9 10; do
      NPUSIM_CONFIG=tiny NPUSIM_SET=soc.num_devices=8 NPUSIM_OUT=run${run} ./threads >/dev/null
    done
    for run in 2 3 4 5 6 7 8 9 10; do
      cmp run1/timeline.json run${run}/timeline.json
      cmp run1/stats.json run${run}/stats.json
    done
    json_check run1/timeline.json \
      "len({e['args']['name'] for e in d if e.get('ph')=='M' and e.get('name')=='thread_name' and \
            e['args']['name'].startswith('Thread ')}) == 9" ;;
  determinism)  # same program, same config → identical timeline
    build overlap
    NPUSIM_CONFIG=tiny NPUSIM_OUT=run1 ./overlap >/dev/null
    NPUSIM_CONFIG=tiny NPUSIM_OUT=run2 ./overlap >/dev/null
    cmp run1/timeline.json run2/timeline.json
    cmp run1/stats.json run2/stats.json ;;
  knob)  # a YAML knob changes the simulated time: halve the bandwidth, the copy takes ~2x
    build copy_timing
    if NPUSIM_CONFIG=tiny NPUSIM_SET="pcie.h2d_bandwidth=5GB/s" ./copy_timing > slow.txt; then
      echo "expected the 10 GB/s timing check to fail at 5 GB/s"; exit 1
    fi
    grep -Eq "H2D 64 MiB: 13\.4[0-9]+ ms" slow.txt ;;
  bad_config)  # a bad config names the file, key and reason, and the program fails cleanly
    printf 'pcie:\n  h2d_bandwith: 16GB/s\n' > bad.yaml
    if npusim info --config bad.yaml > info.txt 2>&1; then exit 1; fi
    grep -q "bad.yaml" info.txt && grep -q "h2d_bandwith" info.txt
    build api_misc
    if NPUSIM_CONFIG="$PWD/bad.yaml" ./api_misc > run.txt 2>&1; then exit 1; fi
    grep -q "h2d_bandwith" run.txt
    if npusim info --set pcie.h2d_bandwidth=fast > set.txt 2>&1; then exit 1; fi
    grep -q "pcie.h2d_bandwidth" set.txt ;;
  replay)  # the installed CLI replays a trace in process; it finds lib64/ by its RPATH
    env -u LD_LIBRARY_PATH "${PREFIX}/bin/npusim" replay "${SRC}/../tools/add_mul.yaml" \
      --config tiny --out out | tee replay.txt
    grep -q "check z: OK" replay.txt
    [[ -s out/timeline.json && -s out/op_summary.csv ]] ;;
  bert_experiment)  # the README's BERT table: each change has the claimed direction
    bash "${SRC}/../../tools/bert_experiment.sh" --prefix "${PREFIX}" | tee table.md
    python3 - table.md <<'PY'
import sys
rows = [l for l in open(sys.argv[1]) if l.startswith("| ") and " % |" in l]
changes = [float(l.split("|")[4].strip().rstrip(" %")) for l in rows]
assert len(changes) == 3 and all(c < -5 for c in changes), changes
PY
    ;;
  cli_info)
    npusim info --reference > ref.txt  # not piped into grep -q: SIGPIPE + pipefail = flaky
    grep -q "pcie.h2d_bandwidth" ref.txt
    [[ "$(npusim info --config ascend310p --soc)" == Ascend310P* ]] ;;
  demo)
    g++ -std=c++17 -O2 -Wall -Werror -I"${PREFIX}/include" "${SRC}/../../tools/demo/demo.cpp" \
        -L"${PREFIX}/lib64" -lacl_rt -o demo
    npusim run --out out -- ./demo | tee demo.txt
    grep -q "data check: OK" demo.txt ;;
  kernel_build)  # the CANN-style kernel project (kernel_project/), built as the samples build
    cmake -S "${SRC}/kernel_project" -B build -DCMAKE_INSTALL_PREFIX="${WORK}/out" > build.txt
    cmake --build build -j2 >> build.txt 2>&1 || { cat build.txt; exit 1; }
    cmake --install build >> build.txt
    grep -q "__NPU_ARCH__=2201" build/CMakeFiles/e2e_kernels.dir/flags.make
    [[ -f out/fatbin/e2e_fatbin/e2e_fatbin.o ]]
    # Every kernel is exported for the binary path.
    nm -D out/fatbin/e2e_fatbin/e2e_fatbin.o > fatbin_symbols.txt
    for k in vadd_float vadd_float_single vadd_half softmax_half; do
      grep -q " npusim_kernel_${k}$" fatbin_symbols.txt
    done
    # The host program never saw the kernel twin's flags.
    if grep -q "trace-pc" build/CMakeFiles/kernel_e2e.dir/flags.make; then exit 1; fi ;;
  op_simulator)  # msopprof simulator's per-instruction view (NPUSIM_OP_SIMULATOR_DIR)
    cmake -S "${SRC}/opsim_project" -B build > build.txt 2>&1 || { cat build.txt; exit 1; }
    cmake --build build -j2 >> build.txt 2>&1 || { cat build.txt; exit 1; }
    check=(python3 "${SRC}/../../tools/conformance/check_op_simulator.py")
    NPUSIM_OP_SIMULATOR_DIR=sim NPUSIM_OUT=run build/opsim > out.txt
    grep -qx "opsim: 0 wrong" out.txt
    # trace.json loads, every slice and flow is complete, the csv files add up, and the slices
    # per core and pipe add up to that pipe's busy cycles in stats.json.
    "${check[@]}" sim --stats run/stats.json --summary > summary.json
    # vadd: 2 blocks x 2 tiles x (2 MTE2 copies, an Add, an MTE3 copy); vdouble: one of each.
    json_check summary.json "d['slices'] == 19 and d['cut'] is False and \
      d['pipes'] == {'MTE2': 9, 'VECTOR': 5, 'MTE3': 5} and \
      d['units'] == ['core0.veccore0', 'core0.veccore1']"
    # Arrows: EnQue/DeQue and SetFlag/WaitFlag signal the last instruction on the producer's
    # pipe: each Add waits for the second copy-in, each copy-out for its Add.
    json_check summary.json "d['flows'] == {'flag': 10}"
    line() { grep -n "$1" "${SRC}/opsim_project/opsim.asc" | cut -d: -f1; }
    json_check summary.json "{k.split('/')[-1]: v for k, v in d['code'].items()} == { \
      'opsim.asc:$(line OPSIM-COPY-X)': 4, 'opsim.asc:$(line OPSIM-COPY-Y)': 4, \
      'opsim.asc:$(line OPSIM-ADD)': 4, 'opsim.asc:$(line OPSIM-COPY-OUT)': 4, \
      'opsim.asc:$(line OPSIM-FLAG-IN)': 1, 'opsim.asc:$(line OPSIM-FLAG-ADD)': 1, \
      'opsim.asc:$(line OPSIM-FLAG-OUT)': 1}"
    json_check sim/trace.json "all(e['args']['call'] == 'AscendC::Add' for e in d['traceEvents'] \
      if e.get('ph') == 'X' and e['name'] == 'Add')"
    # Deterministic: a second run writes the same bytes.
    NPUSIM_OP_SIMULATOR_DIR=sim2 build/opsim > /dev/null
    diff -r sim sim2
    # The kernel-name filter, and the budget: cut with a message on stderr and in trace.json.
    NPUSIM_OP_SIMULATOR_DIR=one NPUSIM_OP_KERNEL_NAME=vdouble build/opsim > /dev/null
    "${check[@]}" one --summary > one.json
    json_check one.json "d['slices'] == 3 and d['units'] == ['core0.veccore0']"
    NPUSIM_OP_SIMULATOR_DIR=cut NPUSIM_OP_INSTR_BUDGET=5 build/opsim > /dev/null 2> cut.txt
    grep -q "instruction budget of 5 instructions (NPUSIM_OP_INSTR_BUDGET) ran out" cut.txt
    "${check[@]}" cut --summary > cut.json
    json_check cut.json "d['slices'] == 5 and d['cut'] is True"
    json_check cut/trace.json "'NPUSIM_OP_INSTR_BUDGET' in d['otherData']['message']" ;;
  asc_project)  # CANN 9's ASC toolchain: find_package(ASC), project(LANGUAGES ASC CXX), .asc
    cmake -S "${SRC}/asc_project" -B build > build.txt 2>&1 || { cat build.txt; exit 1; }
    cmake --build build -j2 >> build.txt 2>&1 || { cat build.txt; exit 1; }
    # -mllvm means nothing on the host: said once per build directory, not once per source.
    [[ $(grep -c "npusim-asc: ignoring '-mllvm -cce-aicore-stack-size=0x8000'" build.txt) == 1 ]]
    npusim run --out run -- build/demo > out.txt
    diff - out.txt <<'OUT'
__NPU_ARCH__=2201
vadd<float>: 32768 elements, 0 wrong, simulated time > 0
vadd<int32_t>: 32768 elements, 0 wrong, simulated time > 0
iota<int32_t>: 16384 elements, 0 wrong, simulated time > 0
checksum (AI CPU): correct
asc_project: all results correct
OUT
    build/adapter > adapter.txt
    diff - adapter.txt <<'OUT'
Fill<int32_t> from the library header: 256 elements, 0 wrong
op::fp16_t(1/3) = 0.33325195, Twice(21) = 42
OUT
    build/hello > hello.txt
    diff - hello.txt <<'OUT'
[AIV Block 0/4] hello, answer 42
[AIV Block 1/4] hello, answer 42
[AIV Block 2/4] hello, answer 42
[AIV Block 3/4] hello, answer 42
host printf: still 7
OUT
    # Kernel code built once per core type (npusim-asc): each sub-block ran its core's build (the
    # AIC's `if constexpr` branch, the AIVs' vector work), the kernel without a core qualifier as
    # __mix__(1, 2); both launches cost the same simulated time.
    npusim run --out percore -- build/percore > percore.txt
    diff - percore.txt <<'OUT'
__mix__(1, 2) kernel: 3 blocks, AIC 1101 1001, AIV 1220 1221, 0 wrong
kernel without a core qualifier: 3 blocks, AIC 5101 5001, AIV 5220 5221, 0 wrong
simulated: 15.199 us and 15.199 us
OUT
    json_check percore/timeline.json "[e['name'] for e in d if e.get('ph') == 'X'].count('ProbeAdapter') == 10"
    nm build/CMakeFiles/percore.dir/percore.asc.o | grep -q " __npusim_aic_main$"  # the AIC build, renamed
    # Without clang++ the class-scope specializations stop the build, naming the line.
    rc=0; PATH=/nonexistent /usr/bin/python3 "$(command -v npusim-asc)" -c "${SRC}/asc_project/percore.asc" \
      -o pc.o 2> cwg.txt || rc=$?
    [[ ${rc} == 2 ]] && grep -q "percore.asc:23 has an explicit specialization in class scope" cwg.txt
    # Two launches of the template kernel (8 + 16 blocks) and one of the .cpp kernel (4 blocks):
    # a task slice each plus one per block.
    json_check run/timeline.json "[e['name'] for e in d if e.get('ph') == 'X'].count('vadd') == 26"
    json_check run/timeline.json "[e['name'] for e in d if e.get('ph') == 'X'].count('iota_kernel') == 5"
    grep -q '"Checksum"' run/timeline.json  # the AI CPU task
    # sim and cpu run modes build the same program; an Ascend 950 build is refused with the reason.
    cmake -S "${SRC}/asc_project" -B sim -DCMAKE_ASC_RUN_MODE=sim > sim.txt 2>&1
    grep -q "run mode sim (runs on npusim)" sim.txt
    # cpu defines ASCENDC_CPU_DEBUG for ASC sources, under which they include cpu_debug_launch.h.
    cmake -S "${SRC}/asc_project" -B cpu -DCMAKE_ASC_RUN_MODE=cpu > cpu.txt 2>&1
    grep -q "ASCENDC_CPU_DEBUG" cpu/CMakeFiles/demo.dir/flags.make
    if grep -q "ASCENDC_CPU_DEBUG" build/CMakeFiles/demo.dir/flags.make; then exit 1; fi
    printf '#include "cpu_debug_launch.h"\n__global__ __vector__ void k() {}\n' > cpu_debug.asc
    npusim-asc -DASCENDC_CPU_DEBUG -c cpu_debug.asc -o cpu_debug.o
    if cmake -S "${SRC}/asc_project" -B b950 -DCMAKE_ASC_ARCHITECTURES=dav-3510 > b950.txt 2>&1; then
      exit 1
    fi
    grep -q "Ascend 950 preset yet" b950.txt
    # Options the driver cannot honour stop the build with a message and status 2.
    for opt in --enable-simt --npu-arch=dav-3510 --no-such-option; do
      rc=0; npusim-asc "${opt}" -c "${SRC}/asc_project/fill.cpp" -o x.o 2> opt.txt || rc=$?
      [[ ${rc} == 2 ]] && grep -q "npusim-asc: error: " opt.txt && [[ ! -f x.o ]]
    done ;;
  sanitizer)  # mssanitizer over a program built with -g --sanitizer: each check catches its defect
    cmake -S "${SRC}/sanitizer_project" -B build > build.txt 2>&1 || { cat build.txt; exit 1; }
    cmake --build build -j2 >> build.txt 2>&1 || { cat build.txt; exit 1; }
    src="${SRC}/sanitizer_project/vadd_defects.asc"
    at() { echo "vadd_defects.asc:$(grep -n "// L:$1\$" "${src}" | cut -d: -f1) in"; }
    # sanitize <out> <expected status> <mssanitizer arguments...>
    sanitize() {
      local out="$1" want="$2" rc=0; shift 2
      mssanitizer "$@" > "${out}" 2>&1 || rc=$?
      [[ ${rc} == "${want}" ]] || { echo "mssanitizer $* -> ${rc}, not ${want}"; cat "${out}"; exit 1; }
    }
    # The correct program: the same output, no report, status 0, under every tool.
    for opts in "" --leak-check=yes --check-unused-memory=yes --tool=racecheck --tool=initcheck; do
      sanitize clean.txt 0 build/vadd_defects 0 ${opts}
      grep -qx "vadd: 0 wrong" clean.txt && grep -qx "====== ERROR SUMMARY: 0 errors" clean.txt
    done
    # memcheck: a copy of 2 x 4 KiB into a 4 KiB UB buffer (blocks 0-2), named at its line...
    sanitize overflow.txt 1 build/vadd_defects 1
    [[ $(grep -c "ERROR: illegal write of size 8192" overflow.txt) == 3 ]]
    grep -q "at 0x0 on UB in DataCopy, in block aiv(0)" overflow.txt
    grep -q "$(at overflow)" overflow.txt
    # ... and block 3 reading past the end of `a` in GM (the twin's GM check).
    grep -q "ERROR: illegal read of size 8192" overflow.txt
    # memcheck: UB address 12 is not 32-byte aligned (each block raises it).
    sanitize misaligned.txt 1 build/vadd_defects 2
    grep -qx "====== ERROR: misaligned access" misaligned.txt
    grep -q "at 0xc on UB in DataCopy" misaligned.txt
    grep -q "$(at misaligned)" misaligned.txt
    # leak: only with --leak-check=yes; the allocation's size and aclrtMalloc's line.
    sanitize leak0.txt 0 build/vadd_defects 3
    grep -qx "====== ERROR SUMMARY: 0 errors" leak0.txt
    sanitize leak.txt 1 build/vadd_defects 3 --leak-check=yes
    grep -q "ERROR: memory leak of size 16384" leak.txt && grep -q "$(at leak)" leak.txt
    grep -qx "====== ERROR SUMMARY: 1 error" leak.txt
    # ... also when the program exits without aclFinalize: all three, at exit.
    sanitize leak_exit.txt 1 build/vadd_defects 7 --leak-check=yes
    [[ $(grep -c "ERROR: memory leak of size 16384" leak_exit.txt) == 3 ]]
    # unused memory: 4 x 16 KiB of the 80 KiB allocation nothing touched.
    sanitize unused.txt 1 build/vadd_defects 4 --check-unused-memory=yes
    grep -q "ERROR: unused memory of size 65536" unused.txt && grep -q "$(at unused)" unused.txt
    grep -qx "====== ERROR SUMMARY: 1 error" unused.txt
    # racecheck: Add (PIPE_V) reads the UB that DataCopy (PIPE_MTE2) wrote, unordered; memcheck
    # alone says nothing of it.
    sanitize race0.txt 0 build/vadd_defects 5
    sanitize race.txt 1 build/vadd_defects 5 --tool=racecheck
    grep -q "ERROR: RAW race of size 4096" race.txt && grep -q "$(at race)" race.txt
    grep -q "Add (PIPE_V) reads the UB buffer at offset 0x0 (4096 bytes) that DataCopy (PIPE_MTE2)" race.txt
    # initcheck: cGm never set, so c is never written; the copy back reads it.
    sanitize uninit.txt 1 build/vadd_defects 6 --tool=initcheck
    grep -q "ERROR: uninitialized read of size 16384" uninit.txt && grep -q "$(at uninit)" uninit.txt
    grep -q "on GM in aclrtMemcpy, on the host" uninit.txt
    # Bad command lines: status 2 and the reason.
    rc=0; mssanitizer --tool=nosuch build/vadd_defects > bad.txt 2>&1 || rc=$?
    [[ ${rc} == 2 ]] && grep -q "unknown --tool 'nosuch'" bad.txt
    rc=0; mssanitizer --tool=racecheck --leak-check=yes build/vadd_defects > bad.txt 2>&1 || rc=$?
    [[ ${rc} == 2 ]] ;;
  op_package)  # CANN 9's custom operator package: build, package (.run), deploy, call its aclnn
    # The package's build runs without the sanitizer preload (sanitizer_env.sh): under
    # LD_PRELOAD=libasan, `cmake -E tar czf` (the .run's archive) deadlocks in a futex wait.
    env -u LD_PRELOAD cmake -S "${SRC}/op_package" -B build > build.txt 2>&1 || { cat build.txt; exit 1; }
    grep -q "npu_op_code_gen: AxpyCustom -> aclnn_axpy_custom.h/.cpp" build.txt
    env -u LD_PRELOAD cmake --build build -j2 --target binary package >> build.txt 2>&1 ||
      { cat build.txt; exit 1; }
    # Without --install-path the package goes to $ASCEND_OPP_PATH/vendors/<name>.
    ASCEND_OPP_PATH="${PWD}/opp" build/out/custom_opp_linux_x86_64.run > run.txt
    grep -qx SUCCESS run.txt
    vendor="${PWD}/opp/vendors/e2e_vendor"
    [[ -f ${vendor}/op_api/include/aclnn_axpy_custom.h && -f ${vendor}/op_api/lib/libcust_opapi.so ]]
    [[ -f ${vendor}/op_impl/ai_core/tbe/kernel/npusim/AxpyCustom.so ]]
    [[ $(cat opp/vendors/config.ini) == "load_priority=e2e_vendor" ]]
    build/out/custom_opp_linux_x86_64.run --install-path="${PWD}/other" | grep -qx SUCCESS
    [[ -d other/vendors/e2e_vendor/op_api ]]
    if (unset ASCEND_OPP_PATH; build/out/custom_opp_linux_x86_64.run > no_path.txt 2>&1); then exit 1; fi
    grep -q "ASCEND_OPP_PATH is not set" no_path.txt
    cmake -S "${SRC}/op_package/app" -B app -DVENDOR="${vendor}" > app.txt 2>&1 || { cat app.txt; exit 1; }
    cmake --build app >> app.txt 2>&1 || { cat app.txt; exit 1; }
    npusim run --out run -- app/app > out.txt
    # 161002: ACLNN_ERR_PARAM_INVALID (a type the definition does not list; the tiling failing).
    diff - out.txt <<'OUT'
workspace 1024
axpy: 0 wrong
float16 input: 161002
100 elements: 161002
OUT
    # The tiling's 4096 / 256 = 16 -> 8 blocks: a task slice plus one per block.
    json_check run/timeline.json "[e['name'] for e in d if e.get('ph') == 'X'].count('axpy_custom') == 9"
    rm -rf run ;;  # a new operator's timeline: not one of the timelines compared across changes
  kernel_vector_add|kernel_softmax|kernel_trap)
    "${KERNEL_PROJECT}/build/kernel_e2e" "${CASE#kernel_}" ;;
  kernel_timing)  # a 1 MiB L2: the 9 MiB of operands stream from HBM (memory-bound kernels)
    NPUSIM_SET=l2.size=1MiB "${KERNEL_PROJECT}/build/kernel_e2e" timing ;;
  kernel_timing_only)  # aicore.functional=false: the same timeline, stats and op summary
    NPUSIM_SET=l2.size=1MiB "${KERNEL_PROJECT}/build/kernel_e2e" timing > functional.txt 2> functional.err
    NPUSIM_SET=l2.size=1MiB NPUSIM_OUT=f "${KERNEL_PROJECT}/build/kernel_e2e" timing > /dev/null 2>&1
    NPUSIM_SET="aicore.functional=false;l2.size=1MiB" NPUSIM_OUT=t "${KERNEL_PROJECT}/build/kernel_e2e" timing \
      > timing.txt 2> timing.err
    NPUSIM_SET="aicore.functional=false;l2.size=1MiB" NPUSIM_OUT=t "${KERNEL_PROJECT}/build/kernel_e2e" timing \
      > /dev/null 2>&1
    diff functional.txt timing.txt  # the simulated kernel times the program prints
    # The trace memo served a repeated launch (vadd, 48 blocks, the same arguments); without it
    # the times are the same.
    NPUSIM_SET="aicore.functional=false;l2.size=1MiB" NPUSIM_LOG=debug "${KERNEL_PROJECT}/build/kernel_e2e" \
      timing > memo.txt 2> memo.err
    grep -q "block traces reused from an earlier launch" memo.err
    NPUSIM_SET="aicore.functional=false;l2.size=1MiB" NPUSIM_TRACE_MEMO=0 NPUSIM_LOG=debug \
      "${KERNEL_PROJECT}/build/kernel_e2e" timing > nomemo.txt 2> nomemo.err
    if grep -q "block traces reused" nomemo.err; then exit 1; fi
    diff functional.txt memo.txt
    diff functional.txt nomemo.txt
    [[ $(grep -c "timing-only run (aicore.functional: false)" timing.err) == 1 ]]
    ! grep -q "timing-only" functional.err
    cmp f/op_summary.csv t/op_summary.csv
    python3 - f t <<'PY'
import json, sys
f, t = sys.argv[1], sys.argv[2]
def spans(d):
    return sorted((e['pid'], e['tid'], e['ts'], e.get('dur', 0), e['name'])
                  for e in json.load(open(d + '/timeline.json')) if e.get('ph') == 'X')
sf, st = spans(f), spans(t)
assert len(sf) > 100 and sf == st, "timelines differ"
def flat(d, path=''):
    if not isinstance(d, dict):  # "time_unit", "zeros"
        return {path: d}
    if 'value' in d and 'unit' in d:
        return {path: d['value']}
    out = {}
    for k, v in d.items():
        out.update(flat(v, path + '.' + k))
    return out
a, b = flat(json.load(open(f + '/stats.json'))), flat(json.load(open(t + '/stats.json')))
assert a.pop('.functional') == 1 and b.pop('.functional') == 0, "stats.json functional"
assert a == b, "stats differ: " + str([k for k in a if a[k] != b.get(k)][:5])
PY
    ;;
  kernel_printf)  # block lines in block order, flushed at sync and at stream destroy
    "${KERNEL_PROJECT}/build/kernel_e2e" printf > out.txt
    python3 - out.txt <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
def block_lines(tag, n):
    out = []
    for b in range(n):
        out += ["tag %d block %d of %d" % (tag, b, n),
                "tag %d block %d says half %.2f" % (tag, b, 0.5 * b)]
    return out
want = ["host: launch 1"] + block_lines(101, 8) + ["host: synchronized 1"] + block_lines(102, 3)
if "host: stream destroyed" not in lines:
    sys.exit("missing 'host: stream destroyed'")
got = [l for l in lines if l != "host: stream destroyed"]
if got != want:
    sys.exit("printf output differs:\n" + "\n".join(lines))
PY
    ;;
  aicpu)  # AI CPU kernels: aicpu_kernel_library + aclrtBinaryLoadFromFile(<op info .json>)
    cmake -S "${SRC}/aicpu_project" -B build > build.txt
    cmake --build build -j2 >> build.txt 2>&1 || { cat build.txt; exit 1; }
    grep -q "trace-pc" build/CMakeFiles/index_aicpu_kernel.dir/flags.make  # counted work
    if grep -q "trace-pc" build/CMakeFiles/aicpu_e2e.dir/flags.make; then exit 1; fi
    json="${WORK}/build/aicpu/index_aicpu_kernel/libindex_aicpu_kernel.json"
    [[ -f "${json}" ]]
    for run in 1 2; do
      NPUSIM_CONFIG=tiny NPUSIM_OUT=out${run} ./build/aicpu_e2e "${json}" 1000 > run${run}.txt
      grep -q '^\[SUCCESS\] AI CPU NonZeroIndex: 429 of 1000' run${run}.txt
      python3 "${SRC}/aicpu_project/check_outputs.py" out${run} > spans${run}.txt
    done
    cmp spans1.txt spans2.txt  # same program + config: the same counts and times
    # Twice the elements: more counted work, a longer task.
    NPUSIM_CONFIG=tiny NPUSIM_OUT=out3 ./build/aicpu_e2e "${json}" 2000 > run3.txt
    python3 "${SRC}/aicpu_project/check_outputs.py" out3 > spans3.txt
    [[ "$(head -1 spans3.txt | cut -d' ' -f2)" -gt "$(head -1 spans1.txt | cut -d' ' -f2)" ]]
    json_check out1/stats.json "d['chip0']['aicpu']['tasks']['value'] == 5 and \
      d['chip0']['aicpu']['failed_tasks']['value'] == 1"
    # The <<<>>> path: a .aicpu kernel launched from a .asc source.
    NPUSIM_CONFIG=tiny NPUSIM_OUT=asc ./build/aicpu_asc_e2e > asc.txt
    grep -q '^\[SUCCESS\] AI CPU <<<>>> ScaleAicpu' asc.txt
    grep -q '^ScaleAicpu: 256 elements' asc.txt  # AscendC::printf in the AI CPU kernel
    grep -q '^0,4294967295,0,[0-9]*,KernelLaunch_ScaleAicpuAiCpu_ScaleAicpu,ScaleAicpu,N/A,AI_CPU,' \
      asc/op_summary.csv ;;
  kernel_fatbin)  # ascendc_fatbin_library + aclrtBinaryLoadFromFile, run from the project dir
    cd "${KERNEL_PROJECT}" && ./build/binary_e2e ;;
  kernel_build_error)  # a kernel compile error names the original file and line
    mkdir -p proj/src
    printf '%s\n' '#include "kernel_operator.h"' \
      'extern "C" __global__ __aicore__ void k(GM_ADDR x) {' '  undeclared_name(x);' '}' \
      'void KDo(void* s) { k<<<1, nullptr, s>>>(nullptr); }' > proj/src/bad_kernel.cpp
    # Included through the CANN 8 layout path (compiler/tikcpp/...).
    printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(bad_kernel)' \
      'include(${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake)' \
      'ascendc_library(kernels STATIC src/bad_kernel.cpp)' > proj/CMakeLists.txt
    cmake -S proj -B proj/build -DASCEND_CANN_PACKAGE_PATH="${ASCEND_HOME_PATH}" > out.txt 2>&1
    if cmake --build proj/build >> out.txt 2>&1; then echo "bad kernel built"; exit 1; fi
    grep -E "${WORK}/proj/src/bad_kernel.cpp:3:[0-9]+: error: .undeclared_name" out.txt ;;
  exit_outputs)  # a program that exits without aclFinalize still gets all its outputs
    cat > exit1.cpp <<'CPP'
#include <cstdlib>
#include "acl/acl.h"
int main() {
  void* d = nullptr;
  if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST)) return 2;
  if (aclrtMemset(d, 4096, 0, 4096)) return 2;
  std::exit(1);
}
CPP
    g++ -std=c++17 -Wall -Werror -I"${PREFIX}/include" exit1.cpp -L"${PREFIX}/lib64" -lacl_rt -o exit1
    rc=0; NPUSIM_OUT=out ./exit1 2> err.txt || rc=$?
    [[ ${rc} -eq 1 ]] && ! grep -q "npusim E" err.txt
    for f in timeline.json stats.json config.yaml op_summary.csv; do [[ -s out/${f} ]]; done
    json_check out/timeline.json "any(e.get('name') == 'AscendCL@aclrtMemset' for e in d)" ;;
  aclnn_norm)  # the norm operator family on the simulated chip (results checked by the program)
    build aclnn_norm; NPUSIM_OUT=out ./aclnn_norm
    python3 - out/op_summary.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
names = ("RmsNorm", "Softmax", "LayerNorm", "AddRmsNorm", "BatchNormStats", "BatchNorm",
         "ReduceSum", "ReduceMax", "ReduceMin", "Cast")
ops = [r for r in rows if r["OP Type"] in names]
for want in names:
    if not any(r["OP Type"] == want for r in ops):
        sys.exit("no %s task in op_summary.csv" % want)
for r in ops:  # vector-core kernels whose time comes from their pipe instructions
    if r["Task Type"] != "AI_VECTOR_CORE" or float(r["aiv_vec_time(us)"]) <= 0:
        sys.exit("not a vector-core task with vector time: %s" % r)
def times(op):
    return [float(r["aiv_time(us)"]) for r in ops if r["OP Type"] == op]
for op in ("RmsNorm", "Softmax"):  # 64 then 256 rows of 4096
    t = times(op)
    if len(t) != 2 or not t[1] > 1.5 * t[0]:
        sys.exit("%s: time does not grow with size: %s" % (op, t))
PY
    ;;
  conformance)  # CANN samples (NPUSIM_SAMPLES), HCCL examples (NPUSIM_HCCL_SAMPLES) and DVPP
                # samples (NPUSIM_DVPP_SAMPLES: an Ascend/samples checkout), when given
    if [[ -z "${NPUSIM_SAMPLES:-}" && -z "${NPUSIM_HCCL_SAMPLES:-}" && -z "${NPUSIM_DVPP_SAMPLES:-}" ]]; then
      echo "NPUSIM_SAMPLES, NPUSIM_HCCL_SAMPLES and NPUSIM_DVPP_SAMPLES not set: skipped"; exit 77
    fi
    bash "${SRC}/../../tools/conformance.sh" ${NPUSIM_SAMPLES:+--samples "${NPUSIM_SAMPLES}"} \
      ${NPUSIM_HCCL_SAMPLES:+--hccl-samples "${NPUSIM_HCCL_SAMPLES}"} \
      ${NPUSIM_DVPP_SAMPLES:+--dvpp-samples "${NPUSIM_DVPP_SAMPLES}"} --prefix "${PREFIX}" \
      --work "${WORK}/samples" ;;
  dvpp_jpegd)  # a JPEG through the installed DVPP API: exact output, timeline, op_summary
    "${PREFIX}/share/npusim/npusim_dvpp_ref" gen-jpeg 1000 1000 in.jpg
    build dvpp_jpegd ascendcl acl_dvpp  # the API is libascendcl's; the codecs libacl_dvpp's
    NPUSIM_CONFIG=tiny NPUSIM_OUT=out ./dvpp_jpegd in.jpg out.yuv
    "${PREFIX}/share/npusim/npusim_dvpp_ref" ref-jpegd in.jpg 1024 1008 ref.yuv
    "${PREFIX}/share/npusim/npusim_dvpp_ref" compare out.yuv ref.yuv 1000 1000 1024 1008 1024 1008 exact
    # tiny: a 1000x1000 frame is 1 ms on a JPEGD unit; then 1024 x 1008 x 1.5 bytes written at
    # 100 GB/s plus 100 ns latency.
    json_check out/timeline.json \
      "any(e.get('ph')=='X' and e.get('name')=='JPEGD' and e['args'].get('frame')==0 and \
           abs(e['dur'] - (1000 + 1548288 / 100e9 * 1e6 + 0.1)) < 0.002 for e in d)"
    json_check out/timeline.json \
      "any(e.get('ph')=='M' and e.get('name')=='thread_name' and e['args']['name']=='DVPP JPEGD ch 0' for e in d)"
    grep -q ',JPEGD,JPEGD,N/A,DVPP,' out/op_summary.csv
    # Deterministic: the same program and config give the same timeline and op_summary.
    NPUSIM_CONFIG=tiny NPUSIM_OUT=out2 ./dvpp_jpegd in.jpg out2.yuv
    cmp out/timeline.json out2/timeline.json && cmp out/op_summary.csv out2/op_summary.csv ;;
  dvpp_absent)  # a chip without JPEGD rejects the call with ACL_ERROR_FEATURE_UNSUPPORTED
    "${PREFIX}/share/npusim/npusim_dvpp_ref" gen-jpeg 64 64 in.jpg
    build_samples_way dvpp_jpegd
    if NPUSIM_CONFIG=tiny NPUSIM_SET="dvpp.jpegd.channels=0" ./dvpp_jpegd in.jpg out.yuv 2> err.txt; then
      echo "decoded on a chip without JPEGD"; exit 1
    fi
    grep -q "acldvppJpegDecodeAsync.*failed: 200006" err.txt ;;
  dvpp_vdec)  # an H.265 stream through the installed VDEC API: exact pictures, frame spans
    "${PREFIX}/share/npusim/npusim_videogen" stream h265 1000 1000 3 in.h265
    build_samples_way dvpp_vdec
    NPUSIM_CONFIG=tiny NPUSIM_OUT=out ./dvpp_vdec in.h265 out.yuv > log.txt
    grep -q "^pictures=3 width=1000 height=1000 wstride=1008 hstride=1000 ret=0$" log.txt
    "${PREFIX}/share/npusim/npusim_videogen" decode h265 in.h265 ref.yuv
    cmp out.yuv ref.yuv
    # tiny: a 1000x1000 frame is 1 ms on a VDEC unit; then its 1008 x 1000 x 1.5 bytes written at
    # 100 GB/s plus 100 ns latency. One channel: the three frames one after another.
    json_check out/timeline.json \
      "sum(1 for e in d if e.get('ph')=='X' and e.get('name')=='VDEC' and e['args'].get('frame')==0 and \
           abs(e['dur'] - (1000 + 1512000 / 100e9 * 1e6 + 0.1)) < 0.002) == 3"
    json_check out/timeline.json \
      "any(e.get('ph')=='M' and e.get('name')=='thread_name' and e['args']['name']=='DVPP VDEC ch 0' for e in d)"
    test "$(grep -c ',VDEC,VDEC,N/A,DVPP,' out/op_summary.csv)" -eq 3 ;;
  link_hygiene)  # the runtime links no media library; callgrind runs an ACL program (issue 22)
    test -f "${PREFIX}/lib64/libacl_dvpp.so"
    test ! -L "${PREFIX}/lib64/libacl_dvpp.so"  # the codec library itself, not a link
    if [[ -n "$(media_libs "${PREFIX}/lib64/libacl_rt.so")" ]]; then
      echo "libacl_rt.so links media libraries:"; media_libs "${PREFIX}/lib64/libacl_rt.so"; exit 1
    fi
    [[ "$(media_libs "${PREFIX}/lib64/libacl_dvpp.so")" == *libavcodec* ]]  # the codecs are there
    # The DVPP API resolves through the stub programs link (a link to the runtime, which has it).
    for lib in "${PREFIX}/lib64/stub/libacl_dvpp.so" "${PREFIX}/lib64/libacl_rt.so"; do
      syms="$(nm -D --defined-only "${lib}")"
      [[ "${syms}" == *" T acldvppJpegDecodeAsync"* && "${syms}" == *" T aclvdecSendFrame"* ]]
    done
    build tiny_acl
    if NPUSIM_CONFIG=tiny LD_DEBUG=libs ./tiny_acl 2>&1 | grep -E 'calling init: .*lib(avcodec|jpeg|png)'; then
      echo "an ACL program without DVPP loaded a codec"; exit 1
    fi
    if ! command -v valgrind > /dev/null; then
      echo "valgrind not installed: callgrind check skipped"; exit 77
    fi
    if [[ "${NPUSIM_SANITIZER:-}" == asan ]]; then  # ASan's shadow memory cannot run under valgrind
      echo "sanitizer build: callgrind check skipped (the readelf and loading checks ran)"; exit 77
    fi
    NPUSIM_CONFIG=tiny valgrind --tool=callgrind --callgrind-out-file=cg.out ./tiny_acl \
      > out.txt 2> vg.txt || { cat vg.txt; echo "callgrind run failed"; exit 1; }
    grep -q "tiny_acl: OK" out.txt
    grep "Collected" vg.txt ;;
  *) echo "unknown case ${CASE}"; exit 2 ;;
esac
echo "e2e ${CASE}: OK"
