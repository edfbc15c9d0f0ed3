#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build the example the CANN 9 way (find_package(ASC), the ASC language) and run it under npusim.
#   source <install prefix>/set_env.sh && ./run.sh [WORK_DIR]    (default: this folder)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common/build.sh" "$@"  # build in WORK_DIR, cd there
npusim run --out out -- ./build/add
