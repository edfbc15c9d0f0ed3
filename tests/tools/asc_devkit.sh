#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/conformance/asc_devkit.py on a synthetic devkit (no compiler needed: the projects' CMake
# writes a ./demo script): which projects count for dav-2201, the README's run block and result
# lines, frameworks skipped, failures named, exit status.
#   asc_devkit.sh <npusim> <source dir> <scratch dir> <case>
set -euo pipefail
SRC="$2"; WORK="$3"
rm -rf "${WORK}"; mkdir -p "${WORK}"; cd "${WORK}"
RUNNER="${SRC}/tools/conformance/asc_devkit.py"

mkdir -p prefix && echo 'export FAKE_NPUSIM=1' > prefix/set_env.sh
# project <folder> <product line> <demo output> [expected result block]
project() {
  local d="devkit/examples/$1"; mkdir -p "${d}/scripts"
  cat > "${d}/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(p LANGUAGES NONE)
file(WRITE \${CMAKE_BINARY_DIR}/demo "#!/bin/sh\necho \"\$ENV{FAKE_NPUSIM} $3\"\n")
file(CHMOD \${CMAKE_BINARY_DIR}/demo PERMISSIONS OWNER_READ OWNER_EXECUTE OWNER_WRITE)
CMAKE
  cat > "${d}/README_en.md" <<MD
| Product |
| $2 |

\`\`\`bash
source \${install_path}/cann/set_env.sh
\`\`\`
\`\`\`bash
mkdir -p build && cd build;                    # Create the build directory
cmake -DCMAKE_ASC_ARCHITECTURES=dav-2201 ..;   # Build
cmake -DCMAKE_ASC_RUN_MODE=cpu ..;make -j;    # CPU debug mode: left out
./demo
\`\`\`
Result:
\`\`\`bash
${4:-1 test pass!}
\`\`\`
MD
}
project 01_simd_cpp_api/00_introduction/ok "Atlas A2 Training Series" "test pass!"
# Blocks after the result do not count: C++ (any language but shell/text), later commands.
printf '%s\n' '```cpp' 'bool pass = false;' '```' '```bash' 'msprof op ./demo  # profile pass' '```' \
  >> devkit/examples/01_simd_cpp_api/00_introduction/ok/README_en.md
project 01_simd_cpp_api/00_introduction/wrong "Atlas A3 Inference Series" "test failed!"
project 01_simd_cpp_api/00_introduction/a950 "Ascend 950PR" "test pass!"
project 02_simd_c_api/torch "Atlas A2 Training Series" "test pass!"
echo "import torch" > devkit/examples/02_simd_c_api/torch/scripts/gen.py
project 02_simd_c_api/mldt "Atlas A2 Training Series" "test pass!"
echo "from ml_dtypes import bfloat16" > devkit/examples/02_simd_c_api/mldt/scripts/gen.py
project 02_simd_c_api/hello "Atlas A2 Training Series" "Hello World!!!" \
  "[AIV Block 0/8] Hello World!!!"

rc=0
python3 "${RUNNER}" --devkit devkit --prefix prefix --work w --folders \
  01_simd_cpp_api/00_introduction,02_simd_c_api > out.txt || rc=$?
cat out.txt
[[ ${rc} == 1 ]]  # one project failed
grep -qx "pass   01_simd_cpp_api/00_introduction/ok" out.txt  # set_env.sh was sourced (FAKE_NPUSIM)
grep -q "^fail   01_simd_cpp_api/00_introduction/wrong  (missing output line: 1 test pass!)" out.txt
grep -q "^n/a    01_simd_cpp_api/00_introduction/a950" out.txt
grep -q "^skip   02_simd_c_api/torch  (scripts/gen.py imports torch)" out.txt
# Only the result block's success lines count ("Hello" is one; the block prefix is not ours).
grep -q "^fail   02_simd_c_api/hello  (missing output line: \[AIV Block 0/8\] Hello World!!!)" out.txt
grep -qx "01_simd_cpp_api/00_introduction: 1 passed, 1 failed, 0 skipped, 1 n/a" out.txt
grep -q "^skip   02_simd_c_api/mldt  (scripts/gen.py imports ml_dtypes)" out.txt
grep -qx "02_simd_c_api: 0 passed, 1 failed, 2 skipped, 0 n/a" out.txt
# The run-mode alternative was left out: the build ran cmake once.
[[ $(grep -c "CMAKE_ASC_RUN_MODE" w/ok/build/CMakeCache.txt || true) == 0 ]]
python3 "${RUNNER}" --devkit devkit --list > list.txt
grep -qx "01_simd_cpp_api/00_introduction: 2 for dav-2201, 1 n/a" list.txt
rc=0; python3 "${RUNNER}" --devkit nowhere --prefix prefix 2> err.txt || rc=$?
[[ ${rc} == 2 ]] && grep -q "has no examples/ folder" err.txt
# tools/conformance.sh --asc-devkit runs it from the install tree and adds its passes and failures.
mkdir -p prefix/bin prefix/share/npusim && touch prefix/bin/setenv.bash
ln -sf "${RUNNER}" prefix/share/npusim/asc_devkit.py
rc=0; bash "${SRC}/tools/conformance.sh" --asc-devkit devkit --prefix prefix --work w2 \
  --only 00_introduction/ > sh.txt || rc=$?
[[ ${rc} == 1 ]] && grep -qx "conformance: 1 passed, 1 failed" sh.txt
echo "asc_devkit: OK"
