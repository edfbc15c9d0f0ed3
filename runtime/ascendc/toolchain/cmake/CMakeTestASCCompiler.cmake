# SPDX-License-Identifier: Apache-2.0
# The ASC language, step 3: check that npusim-asc runs (its --version); compiling a kernel needs
# the whole install tree, which ASCConfig.cmake has checked.
if(NOT CMAKE_ASC_COMPILER_WORKS)
  execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version
                  OUTPUT_VARIABLE _npusim_asc_version RESULT_VARIABLE _npusim_asc_rc)
  if(NOT _npusim_asc_rc EQUAL 0)
    message(FATAL_ERROR "npusim ASC: ${CMAKE_ASC_COMPILER} --version failed (${_npusim_asc_rc})")
  endif()
  string(STRIP "${_npusim_asc_version}" _npusim_asc_version)
  message(STATUS "Check for working ASC compiler: ${_npusim_asc_version}")
  set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
endif()
