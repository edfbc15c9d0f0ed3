# SPDX-License-Identifier: Apache-2.0
# How the examples build a CANN host program against an install tree, as CANN programs do:
# ASCEND_HOME_PATH names the tree (`source <prefix>/bin/setenv.bash` sets it; with CANN it is
# CANN's own toolkit), or -DASCEND_HOME=<prefix>.
#   include(../common/acl_example.cmake)
#   acl_example(<target> SOURCES <file>... LIBS <library in lib64>...)
# Copying one example? Copy this folder (examples/common) beside it too.
if(NOT ASCEND_HOME)
  set(ASCEND_HOME "$ENV{ASCEND_HOME_PATH}")
endif()
if(NOT ASCEND_HOME)
  message(FATAL_ERROR "ASCEND_HOME_PATH is not set: source <install prefix>/bin/setenv.bash first")
endif()

function(acl_example target)
  cmake_parse_arguments(EX "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${target} ${EX_SOURCES})
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  target_include_directories(${target} PRIVATE "${ASCEND_HOME}/include"
                                               "${CMAKE_CURRENT_FUNCTION_LIST_DIR}")
  foreach(lib ${EX_LIBS})
    find_library(LIB_${lib} ${lib} PATHS "${ASCEND_HOME}/lib64" NO_DEFAULT_PATH REQUIRED)
    target_link_libraries(${target} PRIVATE ${LIB_${lib}})
  endforeach()
endfunction()
