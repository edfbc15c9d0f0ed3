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

build() {  # build <name> [lib]
  g++ -std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0 -I"${PREFIX}/include" \
      "${SRC}/$1.cpp" -L"${PREFIX}/lib64" "-l${2:-acl_rt}" -pthread -o "$1"
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
  overlap) build overlap; NPUSIM_CONFIG=tiny ./overlap ;;
  api_misc) build api_misc; ./api_misc ;;
  ascendcl)  # linking libascendcl.so alone gives the whole runtime
    build copy_timing ascendcl; NPUSIM_CONFIG=tiny ./copy_timing ;;
  c_header)  # the headers are C too
    printf '#include "acl/acl.h"\nint main(void){ return aclrtGetSocName() ? 0 : 1; }\n' > c.c
    gcc -std=c99 -Wall -Werror -I"${PREFIX}/include" c.c -L"${PREFIX}/lib64" -lacl_rt -o c && ./c ;;
  outputs)  # timeline, stats and effective config written beside the run
    build copy_timing
    npusim run --config tiny --set pcie.h2d_bandwidth=10GB/s --out out -- ./copy_timing
    json_check out/timeline.json \
      "any(e.get('ph')=='M' and e.get('name')=='thread_name' and e['args']['name'].startswith('Stream') for e in d) and \
       any(e.get('ph')=='X' and e.get('name','').startswith('AscendCL@aclrtMemcpyAsync') for e in d) and \
       any(e.get('ph')=='s' for e in d) and any(e.get('ph')=='f' for e in d)"
    json_check out/stats.json "len(d) > 0"
    grep -q "h2d_bandwidth: 10GB/s" out/config.yaml ;;
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
  cli_info)
    npusim info --reference | grep -q "pcie.h2d_bandwidth"
    [[ "$(npusim info --config ascend310p --soc)" == Ascend310P* ]] ;;
  demo)
    g++ -std=c++17 -O2 -Wall -Werror -I"${PREFIX}/include" "${SRC}/../../tools/demo/demo.cpp" \
        -L"${PREFIX}/lib64" -lacl_rt -o demo
    npusim run --out out -- ./demo | tee demo.txt
    grep -q "data check: OK" demo.txt ;;
  conformance)  # CANN samples, when a checkout is given in NPUSIM_SAMPLES
    if [[ -z "${NPUSIM_SAMPLES:-}" ]]; then echo "NPUSIM_SAMPLES not set: skipped"; exit 77; fi
    bash "${SRC}/../../tools/conformance.sh" --samples "${NPUSIM_SAMPLES}" --prefix "${PREFIX}" --work "${WORK}/samples" ;;
  *) echo "unknown case ${CASE}"; exit 2 ;;
esac
echo "e2e ${CASE}: OK"
