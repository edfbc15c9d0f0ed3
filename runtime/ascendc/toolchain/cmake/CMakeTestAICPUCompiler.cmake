# SPDX-License-Identifier: Apache-2.0
# The AICPU language, step 3: npusim-asc runs (NpusimLanguage.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/NpusimLanguage.cmake)
npusim_language_test(AICPU)
