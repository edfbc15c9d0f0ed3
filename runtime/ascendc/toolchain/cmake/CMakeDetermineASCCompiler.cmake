# SPDX-License-Identifier: Apache-2.0
# The ASC language, step 1 (project(... ASC)): the compiler is bin/npusim-asc, which
# find_package(ASC) has put in CMAKE_ASC_COMPILER (NpusimLanguage.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/NpusimLanguage.cmake)
npusim_language_compiler(ASC asc 40)
