#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build the example against the install tree, make a test JPEG, decode it under npusim and
# compare the picture with libjpeg's own decode.
#   source <install prefix>/bin/setenv.bash && ./run.sh [WORK_DIR]    (default: this folder)
set -euo pipefail
ref="${ASCEND_HOME_PATH}/share/npusim/npusim_dvpp_ref"  # npusim's reference tool (not CANN's)
source "$(dirname "${BASH_SOURCE[0]}")/../common/build.sh" "$@"  # build in WORK_DIR, cd there
# A synthetic 1280 x 720 4:2:0 JPEG (any baseline JPEG of your own works too).
"${ref}" gen-jpeg 1280 720 in.jpg > /dev/null
npusim run --out out -- ./build/jpeg_decode in.jpg out.yuv
# The reference: libjpeg's decode into the same strides (1280 is 128-aligned, 720 16-aligned).
"${ref}" ref-jpegd in.jpg 1280 720 ref.yuv > /dev/null
echo -n "compared with libjpeg: "
"${ref}" compare out.yuv ref.yuv 1280 720 1280 720 1280 720 exact
