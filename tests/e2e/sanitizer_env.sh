# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts that build programs with plain g++ against an installed tree and run them
# (tests/e2e/e2e.sh, tests/package/package.sh). Under tools/dev.sh sanitize the installed library
# is instrumented and the programs are not, so the sanitizer runtimes are loaded first (a
# deliberate link order).
if [[ "${NPUSIM_SANITIZER:-}" == asan ]]; then
  LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
  export LD_PRELOAD
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
fi
