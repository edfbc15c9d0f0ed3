#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# demo_configure.sh <source dir> <this build dir (codecs ON)> <scratch dir>
# Configures <source dir>'s demo build in <scratch dir> as `tools/dev.sh demo` does (demo-configure)
# and checks what it would build and install (NPUSIM_DVPP_CODECS=OFF) and how (-g1); checks that
# <this build dir> has each of the left-out things, so the checks are seen to find them.
set -euo pipefail
src="$1" on="$2" off="$3"
rm -rf "${off}"
NPUSIM_DEMO_BUILD_DIR="${off}" bash "${src}/tools/dev.sh" demo-configure >"${off}.log" 2>&1 ||
  { cat "${off}.log"; exit 1; }
fails=0
# expect <dir> <yes|no> <what> <command...>: the command's output has a line (yes) or none (no).
expect() {
  local dir="$1" want="$2" what="$3" got=no
  shift 3
  (cd "${dir}" && "$@") >/dev/null 2>&1 && got=yes
  if [[ "${got}" != "${want}" ]]; then
    echo "FAIL ${dir}: ${what}: expected ${want}, got ${got}"
    fails=$((fails + 1))
  fi
}
targets() { grep -Eq "^\.\.\. $1\$" "${list}"; }  # list: the folder's targets, as make lists them
# compiles <-g option>: every compile of the folder has it, and no other -g option.
compiles() {
  python3 -c 'import json, sys
cmds = json.load(open("compile_commands.json"))
bad = [c["file"] for c in cmds
       if [a for a in c["command"].split() if a.startswith("-g")] != [sys.argv[1]]]
sys.exit(1 if bad or not cmds else 0)' "$1"
}
codec_loader_has_build_path() {
  python3 -c 'import json, sys
cmds = json.load(open("compile_commands.json"))
hit = [c for c in cmds if c["file"].endswith("/runtime/dvpp/codec_loader.cpp")
       and "NPUSIM_DVPP_BUILD_LIBRARY" in c["command"]]
sys.exit(0 if hit else 1)'
}
for dir in "${on}" "${off}"; do
  want=yes; [[ "${dir}" == "${off}" ]] && want=no
  list="${off}.targets-${want}"
  cmake --build "${dir}" --target help >"${list}"
  for t in acl_dvpp npusim_video_codec npusim_dvpp_ref; do
    expect "${dir}" "${want}" "target ${t}" targets "${t}"
  done
  expect "${dir}" "${want}" "install of libacl_dvpp.so" \
    grep -q '/runtime/libacl_dvpp.so' runtime/install/cmake_install.cmake
  expect "${dir}" "${want}" "install of npusim_dvpp_ref" \
    grep -q '/npusim_dvpp_ref"' tools/cmake_install.cmake
  for m in FFmpegVideo JPEG PNG SWSCALE; do
    expect "${dir}" "${want}" "pkg-config check ${m}" grep -q "^__pkg_config_checked_${m}:" \
      CMakeCache.txt
  done
  expect "${dir}" "${want}" "codec_loader.cpp with the build tree's codec library" \
    codec_loader_has_build_path
  # Both ways: the DVPP API (and its VDEC/VENC skin) stays in the runtime.
  for t in npusim_dvpp npusim_video_layout acl_rt npusim; do
    expect "${dir}" yes "target ${t}" targets "${t}"
  done
done
expect "${off}" yes "every compile with -g1 only" compiles -g1
expect "${off}" no "no test target" grep -q '^\.\.\. runtime_dvpp_tests$' "${off}.targets-no"
expect "${on}" yes "test target" grep -q '^\.\.\. runtime_dvpp_tests$' "${off}.targets-yes"
echo "demo_configure: ${fails} problems"
[[ ${fails} -eq 0 ]]
