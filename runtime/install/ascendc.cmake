# SPDX-License-Identifier: Apache-2.0
# npusim's Ascend C kernel toolchain for CMake ($ASCENDC_CMAKE_DIR/ascendc.cmake).
#
# CANN projects include this file and build kernels with ascendc_library() and
# ascendc_fatbin_library(). npusim's kernel toolchain (host-compiled kernels on simulated AI Cores)
# is not in this version yet: including the file works, so host-only programs configure and build;
# calling either function stops configuration with a clear message.

get_filename_component(_npusim_prefix "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR ASCEND_CANN_PACKAGE_PATH STREQUAL "")
  set(ASCEND_CANN_PACKAGE_PATH "${_npusim_prefix}")
endif()
set(NPUSIM_PREFIX "${_npusim_prefix}")

function(ascendc_library name)
  message(FATAL_ERROR
    "npusim: ascendc_library(${name} ...) — Ascend C kernels are not supported by this npusim "
    "version yet (runtime-only programs build and run; kernel support is the next milestone).")
endfunction()

function(ascendc_fatbin_library name)
  message(FATAL_ERROR
    "npusim: ascendc_fatbin_library(${name} ...) — Ascend C kernels are not supported by this "
    "npusim version yet.")
endfunction()
