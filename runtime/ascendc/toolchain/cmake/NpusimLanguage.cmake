# SPDX-License-Identifier: Apache-2.0
# The rules npusim's kernel languages share (ASC: .asc sources; AICPU: .aicpu sources), all
# through bin/npusim-asc. Its options are g++'s (npusim-asc hands them to the host compiler) plus
# the CANN ones it understands (--npu-arch=..., -Xaicore-start ... -Xaicore-end, -Xhost-start ...
# -Xhost-end). The linker preference (ASC 40, AICPU 35, above C++'s 30) makes npusim-asc link any
# target with a kernel source, so it adds libacl_rt.so.

# npusim_language_compiler(<lang> <extension> <preference>): CMakeDetermine<lang>Compiler.cmake.
macro(npusim_language_compiler lang ext preference)
  if(NOT CMAKE_${lang}_COMPILER)
    find_program(CMAKE_${lang}_COMPILER NAMES npusim-asc DOC "npusim's kernel compiler driver")
  endif()
  if(NOT CMAKE_${lang}_COMPILER OR NOT EXISTS "${CMAKE_${lang}_COMPILER}")
    message(FATAL_ERROR "npusim ${lang}: no compiler (npusim-asc) found; call find_package(${lang}) "
                        "before project(... LANGUAGES ${lang}) with npusim's set_env.sh sourced")
  endif()
  set(_NPUSIM_LANG ${lang})
  set(_NPUSIM_COMPILER "${CMAKE_${lang}_COMPILER}")
  set(_NPUSIM_EXT ${ext})
  set(_NPUSIM_PREFERENCE ${preference})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeNpusimCompiler.cmake.in
                 ${CMAKE_PLATFORM_INFO_DIR}/CMake${lang}Compiler.cmake @ONLY)
  set(CMAKE_${lang}_COMPILER_ENV_VAR "${lang}")
endmacro()

# npusim_language_rules(<lang> <preference>): CMake<lang>Information.cmake.
macro(npusim_language_rules lang preference)
  include(CMakeCommonLanguageInclude)
  # <variable with LANG for the language>=<value>, as g++ takes them (driver: host compiler).
  foreach(rule
      "CMAKE_LANG_OUTPUT_EXTENSION=.o" "CMAKE_INCLUDE_FLAG_LANG=-I"
      "CMAKE_INCLUDE_SYSTEM_FLAG_LANG=-isystem " "CMAKE_LANG_COMPILE_OPTIONS_PIC=-fPIC"
      "CMAKE_LANG_COMPILE_OPTIONS_PIE=-fPIE" "CMAKE_SHARED_LIBRARY_LANG_FLAGS=-fPIC"
      "CMAKE_SHARED_LIBRARY_CREATE_LANG_FLAGS=-shared"
      "CMAKE_SHARED_LIBRARY_SONAME_LANG_FLAG=-Wl,-soname,"
      "CMAKE_SHARED_LIBRARY_RUNTIME_LANG_FLAG=-Wl,-rpath,"
      "CMAKE_SHARED_LIBRARY_RUNTIME_LANG_FLAG_SEP=:" "CMAKE_EXECUTABLE_RUNTIME_LANG_FLAG=-Wl,-rpath,"
      "CMAKE_EXECUTABLE_RUNTIME_LANG_FLAG_SEP=:" "CMAKE_LANG_LINKER_PREFERENCE=${preference}"
      "CMAKE_LANG_LINKER_PREFERENCE_PROPAGATES=1" "CMAKE_LANG_FLAGS_DEBUG_INIT=-O0 -g"
      "CMAKE_LANG_FLAGS_RELEASE_INIT=-O3 -DNDEBUG"
      "CMAKE_LANG_FLAGS_RELWITHDEBINFO_INIT=-O2 -g -DNDEBUG"
      "CMAKE_LANG_FLAGS_MINSIZEREL_INIT=-Os -DNDEBUG")
    string(FIND "${rule}" "=" _npusim_eq)
    string(SUBSTRING "${rule}" 0 ${_npusim_eq} _npusim_var)
    math(EXPR _npusim_eq "${_npusim_eq} + 1")
    string(SUBSTRING "${rule}" ${_npusim_eq} -1 _npusim_value)
    string(REPLACE "LANG" "${lang}" _npusim_var "${_npusim_var}")
    set(${_npusim_var} "${_npusim_value}")
  endforeach()
  set(CMAKE_${lang}_FLAGS_INIT "$ENV{${lang}FLAGS} ${CMAKE_${lang}_FLAGS_INIT}")
  cmake_initialize_per_config_variable(CMAKE_${lang}_FLAGS "Flags used by the ${lang} compiler")
  if(CMAKE_ASC_ARCHITECTURES)
    string(APPEND CMAKE_${lang}_FLAGS " --npu-arch=${CMAKE_ASC_ARCHITECTURES}")
  endif()
  if(NOT DEFINED CMAKE_${lang}_STANDARD OR "${CMAKE_${lang}_STANDARD}" STREQUAL "")
    set(CMAKE_${lang}_STANDARD 17)
  endif()

  set(CMAKE_DEPFILE_FLAGS_${lang} "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
  if(CMAKE_GENERATOR MATCHES "Makefiles")
    set(CMAKE_${lang}_DEPFILE_FORMAT gcc)
    set(CMAKE_${lang}_DEPENDS_USE_COMPILER TRUE)
  endif()

  set(_npusim_launcher "")
  if(CMAKE_${lang}_COMPILER_LAUNCHER)
    string(JOIN " " _npusim_launcher ${CMAKE_${lang}_COMPILER_LAUNCHER})
  endif()
  set(CMAKE_${lang}_COMPILE_OBJECT "${_npusim_launcher} <CMAKE_${lang}_COMPILER> <DEFINES> <INCLUDES> \
  -std=c++${CMAKE_${lang}_STANDARD} <FLAGS> -o <OBJECT> -c <SOURCE>")
  set(CMAKE_${lang}_LINK_EXECUTABLE
      "<CMAKE_${lang}_COMPILER> <FLAGS> <CMAKE_${lang}_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> \
  <LINK_LIBRARIES>")
  set(CMAKE_${lang}_CREATE_SHARED_LIBRARY
      "<CMAKE_${lang}_COMPILER> <CMAKE_SHARED_LIBRARY_${lang}_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> \
  <CMAKE_SHARED_LIBRARY_CREATE_${lang}_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> \
  <LINK_LIBRARIES>")
  set(CMAKE_${lang}_CREATE_SHARED_MODULE "${CMAKE_${lang}_CREATE_SHARED_LIBRARY}")
  set(CMAKE_${lang}_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_${lang}_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_${lang}_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
  set(CMAKE_${lang}_INFORMATION_LOADED 1)
endmacro()

# npusim_language_test(<lang>): CMakeTest<lang>Compiler.cmake. Checks that npusim-asc runs (its
# --version); compiling a kernel needs the whole install tree, which the package config checked.
macro(npusim_language_test lang)
  if(NOT CMAKE_${lang}_COMPILER_WORKS)
    execute_process(COMMAND "${CMAKE_${lang}_COMPILER}" --version
                    OUTPUT_VARIABLE _npusim_version RESULT_VARIABLE _npusim_rc)
    if(NOT _npusim_rc EQUAL 0)
      message(FATAL_ERROR "npusim ${lang}: ${CMAKE_${lang}_COMPILER} --version failed (${_npusim_rc})")
    endif()
    string(STRIP "${_npusim_version}" _npusim_version)
    message(STATUS "Check for working ${lang} compiler: ${_npusim_version}")
    set(CMAKE_${lang}_COMPILER_WORKS TRUE CACHE INTERNAL "")
  endif()
endmacro()
