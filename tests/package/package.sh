#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian package end to end, with no root and no real install:
#   package.sh <build dir> <source dir> <scratch dir> <version>
# builds npusim_<version>_amd64.deb with CPack from the build tree, checks its control fields and
# file list, extracts it into a scratch root (dpkg-deb -x), then, as a CANN user would after
# `source /opt/npusim/set_env.sh`, builds a program with plain g++ against the extracted tree and
# runs it under the extracted npusim, checking its output and the run's stats.json.
set -euo pipefail
BUILD="$1"; SRC="$2"; WORK="$3"; VERSION="$4"
rm -rf "${WORK}"; mkdir -p "${WORK}"; cd "${WORK}"
fail() { echo "package: $*" >&2; exit 1; }

cpack -G DEB --config "${BUILD}/CPackConfig.cmake" -B "${WORK}/cpack" >cpack.log 2>&1 ||
  { cat cpack.log >&2; fail "cpack failed"; }
DEB="${WORK}/cpack/npusim_${VERSION}_amd64.deb"
[[ -f "${DEB}" ]] || fail "no ${DEB}: $(ls "${WORK}/cpack")"

# Control fields.
field() { dpkg-deb -f "${DEB}" "$1"; }
[[ "$(field Package)" == npusim ]] || fail "Package: $(field Package)"
[[ "$(field Version)" == "${VERSION}" ]] || fail "Version: $(field Version), want ${VERSION}"
[[ "$(field Architecture)" == amd64 ]] || fail "Architecture: $(field Architecture)"
DEPENDS="$(field Depends)"
echo "Depends: ${DEPENDS}"
# What the binaries link (dpkg-shlibdeps) and what the scripts run: package names, no versions.
names="$(tr ',' '\n' <<<"${DEPENDS}" | sed 's/^ *//; s/ *(.*//')"
for dep in libsystemc 'libyaml-cpp[0-9.]+' libjpeg62-turbo 'libpng16-16' 'libavcodec[0-9]+' \
           'libswscale[0-9]+' 'libstdc\+\+6' python3; do
  grep -qxE "${dep}" <<<"${names}" || fail "Depends lacks ${dep}: ${DEPENDS}"
done

# The file list: the CANN layout under /opt/npusim.
dpkg-deb -c "${DEB}" >files.txt
for f in lib64/libacl_rt.so lib64/libc_sec.so lib64/libacl_dvpp.so include/acl/acl.h \
         include/acl/acl_rt.h bin/npusim bin/setenv.bash set_env.sh \
         tikcpp/ascendc_kernel_cmake/ascendc.cmake share/npusim/configs/ascend910b.yaml; do
  grep -q " \./opt/npusim/${f}\( \|$\)" files.txt || fail "not in the package: /opt/npusim/${f}"
done
grep -q " \./opt/npusim/lib64/libascendcl.so -> libacl_rt.so$" files.txt ||
  fail "lib64/libascendcl.so is not a link to libacl_rt.so"
if grep -v " \./opt/npusim/\| \./$\| \./opt/$" files.txt; then fail "files outside /opt/npusim"; fi

# Installed "by hand": the tree finds itself wherever it is (set_env.sh takes its own location).
ROOT="${WORK}/root"
dpkg-deb -x "${DEB}" "${ROOT}"
PREFIX="${ROOT}/opt/npusim"
# Nothing points into the build tree: no script or CMake file, no ELF run path. (libacl_rt.so
# holds the build tree's libacl_dvpp.so as its last fallback, after the one beside itself:
# runtime/dvpp/codec_loader.h.)
if grep -rlIF "${BUILD}" "${PREFIX}"; then fail "build-tree paths in the installed files (above)"; fi
while IFS= read -r elf; do
  if readelf -d "${elf}" | grep -E "R(UN)?PATH" | grep -F "${BUILD}"; then fail "${elf}: run path"; fi
done < <(find "${PREFIX}" -type f \( -name "*.so" -o -perm -u+x \) -exec sh -c \
           'head -c 4 "$1" | grep -q ELF && echo "$1"' _ {} \;)
# shellcheck source=/dev/null
source "${PREFIX}/set_env.sh"
[[ "${ASCEND_TOOLKIT_HOME}" == "${PREFIX}" ]] || fail "ASCEND_TOOLKIT_HOME=${ASCEND_TOOLKIT_HOME}"
[[ "$(command -v npusim)" == "${PREFIX}/bin/npusim" ]] || fail "npusim is $(command -v npusim)"
# shellcheck source=tests/e2e/sanitizer_env.sh
source "${SRC}/tests/e2e/sanitizer_env.sh"  # tools/dev.sh sanitize: the ASan runtime first

g++ -std=c++17 -O2 -Wall -Werror -I"${ASCEND_TOOLKIT_HOME}/include" \
    "${SRC}/tests/package/hello_npusim.cpp" -L"${ASCEND_TOOLKIT_HOME}/lib64" -lascendcl -o hello
npusim run --out out -- ./hello >run.txt
cat run.txt
grep -qx "soc ${SOC_VERSION}" run.txt || fail "no 'soc ${SOC_VERSION}' line"
grep -qE "^roundtrip ok in [0-9]+\.[0-9]{3} us$" run.txt || fail "no roundtrip line"
grep -qE "^roundtrip ok in 0\.000 us$" run.txt && fail "the copies took no simulated time"

# The version: `npusim --version` and the run's stats.json say the same.
npusim --version >version.txt
grep -qE "^npusim ${VERSION//./\\.}(\+g[0-9a-f]{7,})?$" version.txt ||
  fail "npusim --version: $(cat version.txt)"
python3 - "$(cut -d' ' -f2 version.txt)" <<'PY'
import json, sys
stats = json.load(open("out/stats.json"))
assert next(iter(stats)) == "npusim_version", list(stats)[:3]
assert stats["npusim_version"]["value"] == sys.argv[1], (stats["npusim_version"], sys.argv[1])
assert stats["sim_time"]["value"] > 0, stats["sim_time"]
PY
echo "package: ${DEB##*/} OK"
