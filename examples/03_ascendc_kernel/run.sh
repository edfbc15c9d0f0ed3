#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build the example against the install tree and run it under npusim, with outputs.
#   source <install prefix>/bin/setenv.bash && ./run.sh [WORK_DIR]    (default: this folder)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common/build.sh" "$@"  # build in WORK_DIR, cd there
# `npusim run` picks the chip (default: the 910B preset) and writes the timeline, stats and
# op_summary.csv into out/; running ./build/scale_add alone works too (no outputs).
npusim run --out out -- ./build/scale_add
# msopprof (also `msprof op`) profiles the first launch per block and core: OpBasicInfo.csv,
# PipeUtilization.csv, Memory.csv ... in prof/OPPROF_<time>_<tag>/ (docs/outputs.md).
rm -rf prof
msopprof --output prof ./build/scale_add > /dev/null
cat prof/OPPROF_*/OpBasicInfo.csv
