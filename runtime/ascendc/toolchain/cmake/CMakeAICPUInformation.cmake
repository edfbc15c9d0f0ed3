# SPDX-License-Identifier: Apache-2.0
# The AICPU language, step 2: how to compile and link with npusim-asc (NpusimLanguage.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/NpusimLanguage.cmake)
npusim_language_rules(AICPU 35)
