# SPDX-License-Identifier: Apache-2.0
# find_package(AICPU): the AICPU language of npusim's toolchain, for CANN's `.aicpu` kernel
# sources (`__global__ __aicpu__` kernels with aicpu_api.h) in a program that launches them with
# <<<>>> from an .asc source:  find_package(ASC) / find_package(AICPU) /
# project(x LANGUAGES ASC AICPU CXX) / add_executable(demo main.asc kernels.aicpu).
# bin/npusim-asc compiles .aicpu sources for the AI CPU model: -DNPUSIM_AICPU_KERNEL=1, basic
# blocks counted (-fsanitize-coverage=trace-pc) and device-memory bytes counted through the
# compiler's -fsanitize=thread access hooks (no TSan runtime), as aicpu_kernel_library does.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/../ASC/ASCConfig.cmake)
set(CMAKE_AICPU_COMPILER "${ASC_NPUSIM_PREFIX}/bin/npusim-asc" CACHE FILEPATH
    "npusim's kernel compiler driver (AICPU sources)")
set(AICPU_FOUND TRUE)
