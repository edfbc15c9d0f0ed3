# SPDX-License-Identifier: Apache-2.0
# The AICPU language, step 1 (project(... AICPU)): the compiler is bin/npusim-asc, which
# find_package(AICPU) has put in CMAKE_AICPU_COMPILER (NpusimLanguage.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/NpusimLanguage.cmake)
npusim_language_compiler(AICPU aicpu 35)
