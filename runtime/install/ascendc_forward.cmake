# SPDX-License-Identifier: Apache-2.0
# npusim: CANN 8 layout alias (<prefix>/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake) for
# projects that hard-code it; the toolchain itself is <prefix>/tikcpp/ascendc_kernel_cmake.
include("${CMAKE_CURRENT_LIST_DIR}/../../../tikcpp/ascendc_kernel_cmake/ascendc.cmake")
