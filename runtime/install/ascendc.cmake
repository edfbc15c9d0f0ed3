# SPDX-License-Identifier: Apache-2.0
# npusim's Ascend C kernel toolchain for CMake ($ASCENDC_CMAKE_DIR/ascendc.cmake).
#
# CANN projects include this file and build kernels with:
#   ascendc_library(<name> STATIC|SHARED <srcs...>)
#       Kernel sources compiled with the host compiler against npusim's kernel_operator.h (the
#       Ascend C CPU twin). The target links the runtime (<prefix>/lib64/libacl_rt.so) and carries
#       the ACL include dir in its interface: a host program that links only <name> gets both.
#   ascendc_fatbin_library(<name> <srcs...>)
#       A loadable kernel binary: a host shared object with every __global__ kernel registered
#       (npusim_kernel_<kernel> symbols), built as <build>/fatbin/<name>/<name>.o and installed
#       as ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/<name>.o for aclrtBinaryLoadFromFile.
#   aicpu_kernel_library(<name> [MODULE|SHARED|STATIC] <srcs...> [OP_INFO <file.json>])
#       AI CPU kernels: host C++ functions with the AI CPU kernel signature
#       `uint32_t Kernel(void* args)` (args = the argument block; .cpp sources with extern "C"
#       functions, or CANN's .aicpu sources with `__global__ __aicpu__` kernels and aicpu_api.h).
#       MODULE (default): the loadable library <build>/aicpu/<name>/lib<name>.so (installed to
#       ${CMAKE_INSTALL_PREFIX}/aicpu/<name>/) for aclrtBinaryLoadFromFile(<op info .json>);
#       STATIC: linked into a program whose ascendc_library sources launch the kernels with
#       `Kernel<<<1, nullptr, stream>>>(&args, sizeof(args))`. Compiled for its counted work:
#       ${NPUSIM_KERNEL_OPT_FLAGS}, -fsanitize-coverage=trace-pc (basic blocks, as for Ascend C
#       kernel code) and -fsanitize=thread without its runtime (the compiler's hook at every
#       memory access; libacl_rt.so counts the bytes that touch device memory); the AI CPU
#       model turns both into time at the aicpu.* rates.
#       OP_INFO copies the operator information file (.json: op type -> opInfo.kernelSo,
#       opInfo.functionName) next to the library, where aclrtBinaryLoadFromFile(<that .json>)
#       finds it (runtime/core/aicpu_kernel.h). Not rewritten; acl/*.h are on the include path.
#   ascendc_compile_definitions(<name> [PRIVATE|PUBLIC|INTERFACE] <defs...>)
#   ascendc_include_directories(<name> [PRIVATE|PUBLIC|INTERFACE] <dirs...>)
#   ascendc_compile_options(<name> [PRIVATE|PUBLIC|INTERFACE] <opts...>)
#       Forwarded to the target_* commands (bisheng-only options are dropped, see below).
#
# How a kernel source is built. Each source goes through rewrite_launch.py (next to this file)
# into <build>/<name>_npusim/: `K<<<blocks, l2ctrl, stream>>>(args)` becomes a call into the
# runtime that returns the launch's aclError, `asm volatile` becomes `asm`, and every __global__
# kernel gets a registration appended. A `#line` directive keeps diagnostics on the original file
# and line. The result is compiled with:
#   -iquote <source dir>               #include "..." resolves as from the original location
#   -isystem <prefix>/include/ascendc   kernel_operator.h, npusim/ascendc/*.h (kernels only)
#   -I<prefix>/include                  acl/*.h
#   -D__NPU_ARCH__=<n>                  from SOC_VERSION (or the configured chip), see below
#   -fsanitize-coverage=trace-pc        scalar work counted per basic block (libacl_rt.so
#                                       provides __sanitizer_cov_trace_pc)
#   ${NPUSIM_KERNEL_OPT_FLAGS}          -O2 by default, whatever CMAKE_BUILD_TYPE says: the
#                                       simulated scalar time of a kernel does not depend on the
#                                       host program's build type (Debug keeps -g).
# Host sources (main.cpp...) are never rewritten or given these flags.
#
# Variables read: SOC_VERSION (e.g. Ascend910B2, Ascend310P3; empty = the chip npusim is
# configured for, via NPUSIM_CONFIG), NPUSIM_NPU_ARCH (forces __NPU_ARCH__), RUN_MODE
# (cpu/sim/npu: all build the same simulator kernels), ASCEND_CANN_PACKAGE_PATH (set to this
# install tree when empty). Variables set: ASCEND_CANN_PACKAGE_PATH, NPUSIM_PREFIX,
# NPUSIM_ACL_RT_LIBRARY, NPUSIM_KERNEL_INCLUDE_DIR, NPUSIM_NPU_ARCH_VALUE (per directory scope:
# the functions read them when called, so sibling directories each include this file).
include_guard(DIRECTORY)

get_filename_component(NPUSIM_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR "${ASCEND_CANN_PACKAGE_PATH}" STREQUAL "")
  set(ASCEND_CANN_PACKAGE_PATH "${NPUSIM_PREFIX}")
endif()
set(NPUSIM_ACL_RT_LIBRARY "${NPUSIM_PREFIX}/lib64/libacl_rt.so")
set(NPUSIM_ACL_INCLUDE_DIR "${NPUSIM_PREFIX}/include")
set(NPUSIM_KERNEL_INCLUDE_DIR "${NPUSIM_PREFIX}/include/ascendc")
set(NPUSIM_REWRITE_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/rewrite_launch.py")
set(NPUSIM_KERNEL_OPT_FLAGS "-O2" CACHE STRING
    "npusim: optimisation flags for Ascend C kernel sources (independent of CMAKE_BUILD_TYPE)")

foreach(_npusim_file "${NPUSIM_ACL_RT_LIBRARY}" "${NPUSIM_KERNEL_INCLUDE_DIR}/kernel_operator.h"
                     "${NPUSIM_REWRITE_SCRIPT}")
  if(NOT EXISTS "${_npusim_file}")
    message(FATAL_ERROR "npusim ascendc.cmake: ${_npusim_file} is missing; "
                        "is ${NPUSIM_PREFIX} a complete npusim install tree?")
  endif()
endforeach()

# The rewrite step needs a python3 (standard library only); Debian's is preferred.
find_program(NPUSIM_PYTHON3 NAMES python3 HINTS /usr/bin DOC "npusim: python3 for rewrite_launch.py")
if(NOT NPUSIM_PYTHON3)
  message(FATAL_ERROR "npusim ascendc.cmake: python3 not found (needed to build Ascend C kernels); "
                      "install it (Debian: apt-get install python3) or set NPUSIM_PYTHON3.")
endif()

if(DEFINED RUN_MODE AND NOT "${RUN_MODE}" STREQUAL ""
   AND NOT "${RUN_MODE}" MATCHES "^(npu|sim|cpu)$")
  message(WARNING "npusim ascendc.cmake: unknown RUN_MODE '${RUN_MODE}' (cpu/sim/npu); "
                  "kernels are built for the npusim simulator either way.")
endif()

# __NPU_ARCH__ of a SoC name (docs/sources.md §1: 1001 = 910, 2002 = 310P, 2201 = 910B/910_93,
# 3002 = 310B, 3510 = 950); "" when unknown.
function(_npusim_arch_of_soc soc out_var)
  set(arch "")
  if(soc MATCHES "^Ascend910B" OR soc MATCHES "^Ascend910_93")
    set(arch 2201)
  elseif(soc MATCHES "^Ascend310P")
    set(arch 2002)
  elseif(soc MATCHES "^Ascend310B")
    set(arch 3002)
  elseif(soc MATCHES "^Ascend950" OR soc MATCHES "^Ascend910_95")
    set(arch 3510)
  elseif(soc MATCHES "^Ascend910([A-Z]|Pro|Premium)?[A-Z]?$")
    set(arch 1001)
  endif()
  set(${out_var} "${arch}" PARENT_SCOPE)
endfunction()

# The configured chip's npu_arch (NPUSIM_CONFIG / NPUSIM_SET at configure time).
function(_npusim_configured_arch out_var)
  set(arch "")
  execute_process(COMMAND "${NPUSIM_PREFIX}/bin/npusim" info --effective
                  OUTPUT_VARIABLE info RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND info MATCHES "npu_arch: *([0-9]+)")
    set(arch "${CMAKE_MATCH_1}")
  endif()
  set(${out_var} "${arch}" PARENT_SCOPE)
endfunction()

if(DEFINED NPUSIM_NPU_ARCH AND NOT "${NPUSIM_NPU_ARCH}" STREQUAL "")
  set(NPUSIM_NPU_ARCH_VALUE "${NPUSIM_NPU_ARCH}")
elseif(DEFINED SOC_VERSION AND NOT "${SOC_VERSION}" STREQUAL "")
  _npusim_arch_of_soc("${SOC_VERSION}" NPUSIM_NPU_ARCH_VALUE)
  if(NPUSIM_NPU_ARCH_VALUE STREQUAL "")
    _npusim_configured_arch(NPUSIM_NPU_ARCH_VALUE)
    message(WARNING "npusim ascendc.cmake: unknown SOC_VERSION '${SOC_VERSION}'; kernels use "
                    "__NPU_ARCH__=${NPUSIM_NPU_ARCH_VALUE} of the configured chip.")
  endif()
else()
  _npusim_configured_arch(NPUSIM_NPU_ARCH_VALUE)
endif()
if(NPUSIM_NPU_ARCH_VALUE STREQUAL "")
  set(NPUSIM_NPU_ARCH_VALUE 2201)
endif()
message(STATUS "npusim: Ascend C kernels for SOC_VERSION='${SOC_VERSION}' "
               "(__NPU_ARCH__=${NPUSIM_NPU_ARCH_VALUE}) on ${NPUSIM_PREFIX}")

# Rewrites each kernel source into <build>/<name>_npusim/ and returns the generated files
# (non-C++ files such as headers are returned unchanged).
function(_npusim_rewrite_sources name out_var)
  set(gen_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}_npusim")
  set(outputs "")
  set(stems "")
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT abs MATCHES "\\.(cpp|cc|cxx|c\\+\\+|C|asc)$")
      list(APPEND outputs "${abs}")
      continue()
    endif()
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "npusim ascendc.cmake: ${name}: kernel source ${abs} does not exist")
    endif()
    get_filename_component(stem "${abs}" NAME_WE)
    get_filename_component(src_dir "${abs}" DIRECTORY)
    list(FIND stems "${stem}" seen)
    list(APPEND stems "${stem}")
    if(NOT seen EQUAL -1)
      list(LENGTH stems n)
      set(stem "${stem}_${n}")
    endif()
    set(out "${gen_dir}/${stem}.cpp")
    file(RELATIVE_PATH shown "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    add_custom_command(
      OUTPUT "${out}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${gen_dir}"
      COMMAND "${NPUSIM_PYTHON3}" "${NPUSIM_REWRITE_SCRIPT}" "${abs}" "${out}"
      DEPENDS "${abs}" "${NPUSIM_REWRITE_SCRIPT}"
      COMMENT "npusim: Ascend C kernel source ${shown} (rewrite for the simulator)"
      VERBATIM)
    set_source_files_properties("${out}" PROPERTIES
      LANGUAGE CXX
      COMPILE_OPTIONS "-iquote;${src_dir}")
    list(APPEND outputs "${out}")
  endforeach()
  set(${out_var} "${outputs}" PARENT_SCOPE)
endfunction()

# Compile settings shared by every kernel target.
function(_npusim_kernel_target name)
  target_compile_features(${name} PRIVATE cxx_std_17)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # SYSTEM: a project's -Wall -Werror judges its kernels, not the twin's headers.
  target_include_directories(${name} SYSTEM PRIVATE "${NPUSIM_KERNEL_INCLUDE_DIR}")
  target_include_directories(${name} PUBLIC "${NPUSIM_ACL_INCLUDE_DIR}")
  # ascendc_compile_options(... --npu-arch=dav-<n>) may override the arch per target.
  set(prop "$<TARGET_PROPERTY:${name},NPUSIM_NPU_ARCH>")
  target_compile_definitions(${name} PRIVATE
    "__NPU_ARCH__=$<IF:$<BOOL:${prop}>,${prop},${NPUSIM_NPU_ARCH_VALUE}>")
  separate_arguments(opt UNIX_COMMAND "${NPUSIM_KERNEL_OPT_FLAGS}")
  target_compile_options(${name} PRIVATE ${opt} -fsanitize-coverage=trace-pc)
endfunction()

function(ascendc_library name kind)
  if(NOT kind MATCHES "^(STATIC|SHARED)$")
    message(FATAL_ERROR "npusim: ascendc_library(${name} ${kind} ...): the library type must be "
                        "STATIC or SHARED")
  endif()
  if(ARGC LESS 3)
    message(FATAL_ERROR "npusim: ascendc_library(${name} ${kind}) has no kernel sources")
  endif()
  _npusim_rewrite_sources(${name} generated ${ARGN})
  add_library(${name} ${kind} ${generated})
  _npusim_kernel_target(${name})
  # The runtime travels with the kernels: programs that link only <name> get libacl_rt.so.
  target_link_libraries(${name} PUBLIC "${NPUSIM_ACL_RT_LIBRARY}")
endfunction()

function(ascendc_fatbin_library name)
  if(ARGC LESS 2)
    message(FATAL_ERROR "npusim: ascendc_fatbin_library(${name}) has no kernel sources")
  endif()
  _npusim_rewrite_sources(${name} generated ${ARGN})
  add_library(${name} MODULE ${generated})
  _npusim_kernel_target(${name})
  _npusim_loaded_module(${name} "" ".o" fatbin)
endfunction()

# A module the runtime loads (aclrtBinaryLoadFromFile): <prefix><name><suffix> in
# <kind>/<name> of the build and install trees, linked against the runtime. Anything else
# unresolved is a build error here, not a dlopen failure at load time.
function(_npusim_loaded_module name prefix suffix kind)
  set_target_properties(${name} PROPERTIES
    PREFIX "${prefix}"
    SUFFIX "${suffix}"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/${kind}/${name}"
    INSTALL_RPATH "${NPUSIM_PREFIX}/lib64")
  target_link_libraries(${name} PRIVATE "${NPUSIM_ACL_RT_LIBRARY}")
  target_link_options(${name} PRIVATE "LINKER:--no-undefined")
  install(TARGETS ${name} LIBRARY DESTINATION "${kind}/${name}")
endfunction()

# Bisheng-only options make no sense for the host compiler: --npu-arch=dav-<n> sets __NPU_ARCH__,
# other --npu-arch/--cce-*/-mllvm options are dropped with a note.
function(ascendc_compile_options name)
  set(kept "")
  set(skip_next FALSE)
  foreach(opt IN LISTS ARGN)
    if(skip_next)
      set(skip_next FALSE)
    elseif(opt MATCHES "^--npu-arch=dav-([0-9]+)")
      set_target_properties(${name} PROPERTIES NPUSIM_NPU_ARCH "${CMAKE_MATCH_1}")
    elseif(opt MATCHES "^(--npu-arch|--cce-|-cce-|--aicore-arch)")
      message(STATUS "npusim: ascendc_compile_options(${name}): '${opt}' ignored (bisheng only)")
    elseif(opt STREQUAL "-mllvm")
      set(skip_next TRUE)
      message(STATUS "npusim: ascendc_compile_options(${name}): '-mllvm' option ignored")
    else()
      list(APPEND kept "${opt}")
    endif()
  endforeach()
  _npusim_with_scope(kept ${kept})
  if(kept)
    target_compile_options(${name} ${kept})
  endif()
endfunction()

function(ascendc_compile_definitions name)
  _npusim_with_scope(args ${ARGN})
  target_compile_definitions(${name} ${args})
endfunction()

function(ascendc_include_directories name)
  _npusim_with_scope(args ${ARGN})
  target_include_directories(${name} ${args})
endfunction()

# ARGN with PRIVATE in front when it does not start with a scope keyword.
function(_npusim_with_scope out_var)
  set(args ${ARGN})
  list(LENGTH args n)
  if(n GREATER 0)
    list(GET args 0 first)
    if(NOT first MATCHES "^(PRIVATE|PUBLIC|INTERFACE|BEFORE|SYSTEM|AFTER)$")
      list(INSERT args 0 PRIVATE)
    endif()
  endif()
  set(${out_var} "${args}" PARENT_SCOPE)
endfunction()

function(aicpu_kernel_library name)
  set(kind MODULE)
  set(args ${ARGN})
  list(LENGTH args n)
  if(n GREATER 0)
    list(GET args 0 first)
    if(first MATCHES "^(STATIC|SHARED|MODULE)$")
      set(kind "${first}")
      list(REMOVE_AT args 0)
    endif()
  endif()
  cmake_parse_arguments(arg "" "OP_INFO" "" ${args})
  if(NOT arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "npusim: aicpu_kernel_library(${name}) has no kernel sources")
  endif()
  set(sources "")
  foreach(src IN LISTS arg_UNPARSED_ARGUMENTS)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(abs MATCHES "\\.aicpu$")  # CANN's AI CPU kernel sources: C++ for the host compiler
      set_source_files_properties("${abs}" PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-xc++")
    endif()
    list(APPEND sources "${abs}")
  endforeach()
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/aicpu/${name}")
  add_library(${name} ${kind} ${sources})
  target_compile_features(${name} PRIVATE cxx_std_17)
  target_include_directories(${name} PUBLIC "${NPUSIM_ACL_INCLUDE_DIR}")
  target_include_directories(${name} SYSTEM PRIVATE "${NPUSIM_KERNEL_INCLUDE_DIR}")
  target_compile_definitions(${name} PRIVATE NPUSIM_AICPU_KERNEL=1)
  separate_arguments(opt UNIX_COMMAND "${NPUSIM_KERNEL_OPT_FLAGS}")
  # -fsanitize=thread at compile time only: the compiler's memory-access hooks, which
  # libacl_rt.so defines to count device-memory bytes (no ThreadSanitizer runtime is linked).
  # -fno-sanitize=all first: ASan (a sanitizer build of the project) cannot be combined with it.
  target_compile_options(${name} PRIVATE ${opt} -fsanitize-coverage=trace-pc -fno-sanitize=all
                         -fsanitize=thread)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(kind STREQUAL "STATIC")
    # Linked into the program that launches its kernels with <<<>>>; the runtime comes along.
    target_link_libraries(${name} PUBLIC "${NPUSIM_ACL_RT_LIBRARY}")
    return()
  endif()
  # __sanitizer_cov_trace_pc comes from the runtime.
  _npusim_loaded_module(${name} "lib" ".so" aicpu)
  if(arg_OP_INFO)
    get_filename_component(json "${arg_OP_INFO}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${json}")
      message(FATAL_ERROR "npusim: aicpu_kernel_library(${name}): OP_INFO ${json} does not exist")
    endif()
    get_filename_component(json_name "${json}" NAME)
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${json}" "${out_dir}/${json_name}"
      VERBATIM)
    install(FILES "${json}" DESTINATION "aicpu/${name}")
  endif()
endfunction()
