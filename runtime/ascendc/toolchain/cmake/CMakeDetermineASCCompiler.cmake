# SPDX-License-Identifier: Apache-2.0
# The ASC language, step 1 (project(... ASC)): which compiler. ASCConfig.cmake has set
# CMAKE_ASC_COMPILER to npusim-asc; a user may set another with -DCMAKE_ASC_COMPILER.
if(NOT CMAKE_ASC_COMPILER)
  find_program(CMAKE_ASC_COMPILER NAMES npusim-asc DOC "npusim's ASC driver")
endif()
if(NOT CMAKE_ASC_COMPILER OR NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "npusim ASC: no ASC compiler (npusim-asc) found; call find_package(ASC) "
                      "before project(... LANGUAGES ASC) with npusim's set_env.sh sourced")
endif()
set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
set(CMAKE_ASC_COMPILER_ID "npusim")
set(CMAKE_ASC_COMPILER_VERSION "9.0.0")
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in
               ${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake @ONLY)
