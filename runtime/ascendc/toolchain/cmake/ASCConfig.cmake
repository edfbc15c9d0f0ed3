# SPDX-License-Identifier: Apache-2.0
# find_package(ASC): npusim's ASC toolchain, as a CANN install provides it.
#
#   set(CMAKE_ASC_ARCHITECTURES "dav-2201")   # optional; dav-2201 is the default
#   find_package(ASC REQUIRED)
#   project(x LANGUAGES ASC CXX)
#   add_executable(demo main.asc)              # kernels and host code in one source
#
# It adds the ASC language (CMakeDetermineASCCompiler.cmake and friends, next to this file) to
# CMAKE_MODULE_PATH; project(... ASC) then uses bin/npusim-asc, which compiles each source with
# the host compiler against the Ascend C twin and links the program with libacl_rt.so.
# CMake finds this file through PATH (<prefix>/bin/.. is a search prefix, so source set_env.sh
# first) or with -DASC_DIR=<prefix>/share/cmake/ASC.
#
# Variables read:
#   CMAKE_ASC_ARCHITECTURES  dav-2201 (default: Atlas A2/A3, npusim's ascend910b preset),
#                            dav-2002 (the ascend310p preset); dav-3510 (Ascend 950) is an error
#                            until npusim has a preset for it.
#   CMAKE_ASC_RUN_MODE       npu (default), sim or cpu. On CANN they choose the NPU, the CAModel
#                            simulator or the CPU debug build; here all three build the same
#                            program, which runs on npusim's simulated chip (NPUSIM_CONFIG);
#                            cpu also defines ASCENDC_CPU_DEBUG (cpu_debug_launch.h).
# Variables set: ASC_FOUND, ASC_VERSION, ASC_NPUSIM_PREFIX, ASC_NPU_ARCH (the __NPU_ARCH__ value).
include_guard(GLOBAL)

get_filename_component(ASC_NPUSIM_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT DEFINED CMAKE_ASC_ARCHITECTURES OR "${CMAKE_ASC_ARCHITECTURES}" STREQUAL "")
  set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture: dav-2201 or dav-2002")
endif()
if(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
  set(ASC_NPU_ARCH 2201)
elseif(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2002")
  set(ASC_NPU_ARCH 2002)
elseif(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-3510")
  message(FATAL_ERROR "npusim ASC: CMAKE_ASC_ARCHITECTURES=dav-3510 (Ascend 950): npusim has no "
                      "Ascend 950 preset yet; use dav-2201 (Atlas A2/A3, the ascend910b preset)")
else()
  message(FATAL_ERROR "npusim ASC: unknown CMAKE_ASC_ARCHITECTURES '${CMAKE_ASC_ARCHITECTURES}' "
                      "(npusim knows dav-2201 and dav-2002; one architecture per build)")
endif()

if(NOT DEFINED CMAKE_ASC_RUN_MODE OR "${CMAKE_ASC_RUN_MODE}" STREQUAL "")
  set(CMAKE_ASC_RUN_MODE "npu" CACHE STRING "npu, sim or cpu: all run on npusim")
endif()
if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|sim|cpu)$")
  message(FATAL_ERROR "npusim ASC: unknown CMAKE_ASC_RUN_MODE '${CMAKE_ASC_RUN_MODE}' "
                      "(npu, sim or cpu)")
endif()

# cpu: sources see ASCENDC_CPU_DEBUG as on CANN (they include cpu_debug_launch.h under it).
if(CMAKE_ASC_RUN_MODE STREQUAL "cpu")
  add_compile_definitions($<$<COMPILE_LANGUAGE:ASC>:ASCENDC_CPU_DEBUG>)
endif()

set(CMAKE_ASC_COMPILER "${ASC_NPUSIM_PREFIX}/bin/npusim-asc" CACHE FILEPATH "npusim's ASC driver")
if(NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "npusim ASC: ${CMAKE_ASC_COMPILER} is missing; is ${ASC_NPUSIM_PREFIX} a "
                      "complete npusim install tree?")
endif()
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")
# Libraries that CANN programs name (tiling_api, register, platform, ...) live in lib64.
link_directories("${ASC_NPUSIM_PREFIX}/lib64")
set(ASC_FOUND TRUE)
message(STATUS "npusim ASC: ${CMAKE_ASC_ARCHITECTURES} (__NPU_ARCH__=${ASC_NPU_ARCH}), run mode "
               "${CMAKE_ASC_RUN_MODE} (runs on npusim), ${ASC_NPUSIM_PREFIX}")

# CANN 9's custom operator packages (npu_op_package, npu_op_code_gen, npu_op_library, ...).
include("${CMAKE_CURRENT_LIST_DIR}/NpuOpPackage.cmake")
# The devkit's ONNX plugin projects download nlohmann/json's include.zip (NLOHMANN_JSON_URL, from
# gitcode); npusim builds offline and installs the same archive made from the system's
# nlohmann/json headers, and points that download at it (said once).
set(_npusim_json_zip "${ASC_NPUSIM_PREFIX}/share/npusim/third_party/nlohmann_json_include.zip")
if(EXISTS "${_npusim_json_zip}" AND
   (NOT DEFINED NLOHMANN_JSON_URL OR NLOHMANN_JSON_URL MATCHES "cann-src-third-party/json/"))
  if(DEFINED NLOHMANN_JSON_URL)
    message(STATUS "npusim ASC: NLOHMANN_JSON_URL ${NLOHMANN_JSON_URL} -> the install tree's "
                   "nlohmann/json (builds offline)")
  endif()
  set(NLOHMANN_JSON_URL "file://${_npusim_json_zip}" CACHE STRING
      "nlohmann/json include.zip (npusim's offline copy of the system headers)" FORCE)
endif()
