#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's first program: build it with one g++ line against the install tree, run it under
# npusim with outputs, and show its row of op_summary.csv.
#   source <install prefix>/bin/setenv.bash && ./run.sh [WORK_DIR]    (default: this folder)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(realpath -m "${1:-${here}}")"
mkdir -p "${work}" && cd "${work}"
g++ -std=c++17 -O2 -Wall -Werror "${here}/app.cpp" -I"${ASCEND_HOME_PATH}/include" \
    -L"${ASCEND_HOME_PATH}/lib64" -lopapi -lnnopbase -lascendcl -o app
npusim run --out out -- ./app
