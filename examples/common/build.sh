# SPDX-License-Identifier: Apache-2.0
# Sourced by each example's run.sh: builds the example (its CMakeLists.txt) in WORK_DIR, by default
# the example's own folder, and leaves the shell there, with `here` naming the example's folder.
#   source "$(dirname "${BASH_SOURCE[0]}")/../common/build.sh" [WORK_DIR]
here="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
work="$(realpath -m "${1:-${here}}")"
mkdir -p "${work}" && cd "${work}"
cmake -S "${here}" -B build > /dev/null
cmake --build build > /dev/null
