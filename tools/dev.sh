#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's two commands, for a fresh Debian machine and a clean clone:
#   tools/dev.sh demo   install what is missing to build, build only the runtime and the CLI
#                       (no tests, benchmarks or fuzzers, no DVPP codec library), install to
#                       build/install, run the demo program on the default (embedded) chip config
#                       and point to its timeline
#   tools/dev.sh test   install what is missing, build everything, run the whole test suite, then
#                       build it with ASan + UBSan and run it again (CI: .ci/run)
# Other verbs: deps (packages only), build (deps + build of everything + install tree), package
# (the Debian package of the install tree: build/package/npusim_<version>_amd64.deb, installing
# to /opt/npusim), bench, fuzz (the API and config fuzzers for 10^6 calls / 10^5 cases), sanitize
# (everything built with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/, then the
# whole test suite; .ci/run runs it too), fidelity (build, then the fidelity suite bench/fidelity/
# on the ascend910b and ascend310p presets: microbenchmarks in simulated time next to published
# figures, README "Fidelity").
# package configures build/ with NPUSIM_TESTS=OFF and NPUSIM_BENCH=OFF, the others with both ON;
# switching keeps what is built (the options add targets, they change no flags). demo builds in a
# folder of its own, build/demo-build (demo_configure), so that the two never rebuild each other:
# tests and benchmarks OFF, NPUSIM_DVPP_CODECS=OFF (its program decodes no picture; the codec
# library's media packages are most of what apt installs) and -g1 (line tables only: backtraces
# keep file:line; 30 % less compile time than -g); it installs to build/install like the others.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${NPUSIM_BUILD_DIR:-${ROOT}/build}"
PREFIX="${BUILD}/install"
DEMO_BUILD="${NPUSIM_DEMO_BUILD_DIR:-${BUILD}/demo-build}"
JOBS="$(nproc)"
# ccache: paths relative to the checkout and no build directory in the hash, so a clone in another
# folder (CI's) reuses what this one compiled.
export CCACHE_BASEDIR="${ROOT}" CCACHE_NOHASHDIR=1

# What demo needs: the compilers and the libraries the runtime and the CLI build with.
BUILD_PACKAGES=(build-essential cmake make pkg-config ccache
                libsystemc-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libeigen3-dev
                python3)
# What DVPP's codec library (libacl_dvpp.so) builds with besides: package and everything else.
CODEC_PACKAGES=(libjpeg62-turbo-dev libpng-dev                    # DVPP JPEG / PNG
                libavcodec-dev libavutil-dev libswscale-dev)      # DVPP VDEC / VENC (x264, x265)
# And what the test suite needs besides.
PACKAGES=("${BUILD_PACKAGES[@]}" "${CODEC_PACKAGES[@]}"
          libgtest-dev libgmock-dev python3-numpy
          python3-matplotlib chromium                             # npusim report; its browser test
          valgrind                                                # e2e_link_hygiene: callgrind runs an ACL program
          clang                                                   # npusim-asc: class-scope specializations (e2e asc_project)
          slurm-wlm munge)                                        # npusim sweep --slurm, tested for real

deps() {  # deps [package...] (default: all of PACKAGES)
  local want=("$@") missing=() p
  [[ $# -gt 0 ]] || want=("${PACKAGES[@]}")
  for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "[npusim] installing: ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    ${sudo} apt-get update -qq
    DEBIAN_FRONTEND=noninteractive ${sudo} apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# configure <ON|OFF> [cmake args]: build/ with the tests and benchmarks (ON) or only the runtime,
# the CLI and what they install (OFF). -g1 (line tables: backtraces, perf and callgrind by line)
# instead of -g: a library file compiles in 75-95 % of its -g time (model_ri.cpp 6.7 -> 5.0
# CPU-s) and debug info never changes the generated code, so neither the benchmarks nor the
# kernels' counted basic blocks move. Reconfigure with -g for a debugger's view of locals.
configure() {
  local dir="${BUILD}" flags="-O2 -g1 -DNDEBUG"
  [[ $1 == demo ]] && { dir="${DEMO_BUILD}"; shift; }
  cmake -S "${ROOT}" -B "${dir}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_WERROR=ON \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${flags}" -DCMAKE_C_FLAGS_RELWITHDEBINFO="${flags}" \
        -DNPUSIM_TESTS="$1" -DNPUSIM_BENCH="$1" "${@:2}" >/dev/null
}

demo_configure() {  # the demo's build folder (see the top); tests/build checks what it builds
  configure demo OFF -DNPUSIM_DVPP_CODECS=OFF
}

install_tree() {  # install_tree [build folder]
  cmake --install "${1:-${BUILD}}" --prefix "${PREFIX}" >/dev/null
  echo "[npusim] install tree: ${PREFIX}  (source ${PREFIX}/bin/setenv.bash)"
}

build() {  # everything: the tests, fuzzers and benchmarks too
  deps
  configure ON
  cmake --build "${BUILD}" -j"${JOBS}"
  install_tree
}

build_runtime() {  # only the runtime, the CLI and the rest of the install tree
  deps "${BUILD_PACKAGES[@]}" "${CODEC_PACKAGES[@]}"
  configure OFF
  cmake --build "${BUILD}" -j"${JOBS}"
  install_tree
}

# The install tree as a Debian package (runtime/install/package.cmake): /opt/npusim.
package() {
  build_runtime
  local deb
  deb="$(cpack -G DEB --config "${BUILD}/CPackConfig.cmake" -B "${BUILD}/package" |
         sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p')"
  echo "[npusim] package: ${deb}"
  echo "[npusim]   install: sudo apt install ${deb}   then: source /opt/npusim/set_env.sh"
}

demo() {
  deps "${BUILD_PACKAGES[@]}"
  demo_configure
  cmake --build "${DEMO_BUILD}" -j"${JOBS}"
  install_tree "${DEMO_BUILD}"
  local out="${BUILD}/demo-out"
  # Built like any CANN host program: plain g++ against the install tree.
  g++ -std=c++17 -O2 -Wall -Werror -I"${PREFIX}/include" "${ROOT}/tools/demo/demo.cpp" \
      -L"${PREFIX}/lib64" -lacl_rt -Wl,-rpath,"${PREFIX}/lib64" -o "${BUILD}/demo"
  "${PREFIX}/bin/npusim" run --out "${out}" -- "${BUILD}/demo"
  echo "[npusim] timeline: ${out}/timeline.json (open in https://ui.perfetto.dev or MindStudio Insight)"
  echo "[npusim] stats:    ${out}/stats.json    effective config: ${out}/config.yaml"
}

test_all() {
  build
  (cd "${BUILD}" && ctest --output-on-failure -j"${JOBS}" --timeout 300)
}

# ASan + UBSan build of everything (a build directory of its own) and the whole suite under it.
# Programs the e2e tests build with plain g++ get the ASan runtime preloaded (tests/e2e/e2e.sh).
# UBSan without its alignment and null checks: they instrument every pointer access and are most
# of what UBSan costs to compile (an ASan + UBSan test TU: 54 CPU-s with them, 26 without, 20 with
# ASan alone). ASan reports a null dereference itself (SEGV on address 0, with its stack), and on
# the x86-64 hosts npusim runs on a misaligned load is no fault; vptr and the other UB checks stay.
SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize=alignment,null -fno-omit-frame-pointer"
sanitize() {
  deps
  local b="${NPUSIM_ASAN_BUILD_DIR:-${ROOT}/build-asan}"
  # -g1: line tables are all a sanitizer report needs (30 % less compile time than -g). -O1: an
  # ASan + UBSan translation unit compiles in 60 % of its -O2 time (sim_backend.cpp: 22.8 vs 37.9
  # CPU-s); kernel sources keep -O2 (their counted basic blocks set simulated times); test code
  # -O0 (63 % of its -O1 compile time; the suite's time is the library's).
  cmake -S "${ROOT}" -B "${b}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_WERROR=ON \
        -DCMAKE_CXX_FLAGS="${SAN_FLAGS}" -DCMAKE_C_FLAGS="${SAN_FLAGS}" \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
        -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DNPUSIM_TEST_OPT_FLAGS="-O0 -g1" \
        -DCMAKE_EXE_LINKER_FLAGS="${SAN_FLAGS}" -DCMAKE_SHARED_LINKER_FLAGS="${SAN_FLAGS}" >/dev/null
  cmake --build "${b}" -j"${JOBS}"
  (cd "${b}" && NPUSIM_SANITIZER=asan \
     ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0" \
     UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
     ctest --output-on-failure -j"${JOBS}" --timeout 600)
}

fuzz() {
  build
  NPUSIM_LOG=off "${BUILD}/tests/fuzz/npusim_api_fuzz" --seed "${NPUSIM_FUZZ_SEED:-1}" \
    --calls 1000000 --threads 3
  "${BUILD}/tests/fuzz/npusim_config_fuzz" --seed "${NPUSIM_FUZZ_SEED:-1}" --cases 100000
}

case "${1:-}" in
  deps) deps ;;
  build) build ;;
  demo) demo ;;
  demo-configure) demo_configure ;;  # only configures the demo's folder (tests/build)
  package) package ;;
  test) test_all; sanitize ;;
  sanitize) sanitize ;;
  fuzz) fuzz ;;
  bench) build; "${BUILD}/bench/npusim_bench"
         NPUSIM_LOG=off "${BUILD}/tests/fuzz/npusim_api_fuzz" --seed 1 --calls 1000000 --threads 3 ;;
  fidelity) build
            for preset in ascend910b ascend310p; do
              "${BUILD}/bench/npusim_fidelity" --config "${preset}"; echo
            done ;;
  *) echo "usage: tools/dev.sh demo|test|build|deps|package|bench|fuzz|sanitize|fidelity" >&2; exit 2 ;;
esac
