#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The BERT-Large claims as an experiment: runs the BERT-Large encoder layer traces (traces/,
# seq 512, batch 1) through `npusim replay` four ways and prints the simulated end-to-end times
# and the changes beside the claimed ones:
#   fused vs unfused        bert_large_layer_fp16_fused vs _fp16_unfused (both asynchronous)
#   async vs sync per op    _fp16_unfused vs _fp16_unfused --sync-per-op
#   fp16 vs fp32            _fp16_unfused vs _fp32 (both unfused, asynchronous)
#
#   tools/bert_experiment.sh [--prefix <install prefix>] [npusim replay options...]
#
# Options after --prefix go to every replay (e.g. --config ascend310p, --set hbm.bandwidth=...).
# Exit status: 0, or the first failing replay's.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${here}/build/install"
if [[ "${1:-}" == "--prefix" ]]; then prefix="$2"; shift 2; fi
npusim="${prefix}/bin/npusim"
[[ -x "${npusim}" ]] || { echo "bert_experiment: ${npusim} not found (build and install first)" >&2; exit 2; }
traces="${here}/traces"
work="$(mktemp -d /tmp/npusim-bert.XXXXXX)"
trap 'rm -rf "${work}"' EXIT

run() {  # run <name> <trace> [options...]: simulated microseconds on stdout
  local name="$1" trace="$2"
  shift 2
  "${npusim}" replay "${traces}/${trace}.yaml" --out "${work}/${name}" "$@" >"${work}/${name}.log" 2>&1 ||
    { cat "${work}/${name}.log" >&2; exit 1; }
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['simulated_us'])" \
    "${work}/${name}/replay_summary.json"
}

unfused=$(run unfused bert_large_layer_fp16_unfused "$@")
fused=$(run fused bert_large_layer_fp16_fused "$@")
sync=$(run sync bert_large_layer_fp16_unfused --sync-per-op "$@")
fp32=$(run fp32 bert_large_layer_fp32 "$@")

python3 - "${unfused}" "${fused}" "${sync}" "${fp32}" <<'PY'
import sys
unfused, fused, sync, fp32 = map(float, sys.argv[1:])
rows = [
    ("fused softmax/layernorm/attention vs unfused (fp16, async)", unfused, fused, -23),
    ("asynchronous pipeline vs synchronous per op (fp16, unfused)", sync, unfused, -12),
    ("fp16 vs fp32 (unfused, async)", fp32, unfused, -41),
]
print("| BERT-Large layer, seq 512 | before (us) | after (us) | simulated change | claimed |")
print("|---|---|---|---|---|")
for what, before, after, claim in rows:
    print(f"| {what} | {before:.1f} | {after:.1f} | {100 * (after - before) / before:+.1f} % | {claim} % |")
PY
