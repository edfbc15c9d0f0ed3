# SPDX-License-Identifier: Apache-2.0
# CANN 9's custom operator package functions (included by ASCConfig.cmake):
#
#   npu_op_package(<name> TYPE RUN [CONFIG INSTALL_PATH <dir>])  the package: targets `binary`
#       (the kernels) and `package` (<dir>/custom_opp_<os>_<arch>.run, default CMAKE_INSTALL_PREFIX)
#   npu_op_code_gen(SRC <op_host sources> PACKAGE <name> OUT_DIR <dir>)  at configure time, builds
#       the sources with a generator main (npusim_opgen.cpp) and writes aclnn_<op>.h/.cpp,
#       op_proto.h/.cc and the kernels' type headers into <dir> (${ASCEND_AUTOGEN_PATH})
#   npu_op_library(<target> TILING|ACLNN|GRAPH|ONNX_PLUGIN|TF_PLUGIN <sources>)  shared libraries
#       linked with libacl_rt.so (register, platform, ... are links to it)
#   npu_op_device_tiling_library(<target> SHARED <sources>)  the tiling-sink library
#   npu_op_kernel_sources(<target> OP_TYPE <Op> KERNEL_DIR <dir> KERNEL_FILE <file>)
#   npu_op_kernel_library(<target> SRC_BASE <dir> [TILING_LIBRARY <t>])  one kernel library per
#       operator, <Op>.so, built by npusim-asc (kernels counted per basic block as every kernel)
#   npu_op_package_add(<name> LIBRARY <targets>)  what the package installs
#
# The .run is a shell script followed by a tar.gz of the vendor tree; it installs into
# --install-path=<dir>/vendors/<name> or $ASCEND_OPP_PATH/vendors/<name> (set_env.sh sets it to
# <prefix>/opp), records <name> in vendors/config.ini, and prints SUCCESS. Layout:
#   op_api/include/aclnn_*.h, op_api/lib/lib<aclnn>.so, op_proto/lib/linux/x86_64/,
#   op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64/ (tiling), .../op_master_device/lib/,
#   op_impl/ai_core/tbe/kernel/npusim/<Op>.so, framework/onnx|tensorflow/ (plugins).
include_guard(GLOBAL)

if(NOT DEFINED ASCEND_AUTOGEN_PATH)
  set(ASCEND_AUTOGEN_PATH "${CMAKE_BINARY_DIR}/autogen")
endif()
set(_NPUSIM_OPKG_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(npu_op_package name)
  cmake_parse_arguments(A "" "TYPE" "CONFIG" ${ARGN})
  if(NOT A_TYPE MATCHES "^(RUN|STATIC)$")
    message(FATAL_ERROR "npu_op_package(${name}): TYPE ${A_TYPE} is not supported by npusim "
                        "(TYPE RUN, a .run package, or STATIC, an installed static library)")
  endif()
  set_property(GLOBAL PROPERTY NPUSIM_OPKG_${name}_TYPE ${A_TYPE})
  cmake_parse_arguments(C "" "INSTALL_PATH" "" ${A_CONFIG})
  if(NOT C_INSTALL_PATH)
    set(C_INSTALL_PATH "${CMAKE_INSTALL_PREFIX}")
  endif()
  set_property(GLOBAL PROPERTY NPUSIM_OPKG_${name}_OUT "${C_INSTALL_PATH}")
  set_property(GLOBAL PROPERTY NPUSIM_OPKG_${name}_LIBS "")
  # DEFER evaluates its arguments when the call runs: bake the values in.
  cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL _npusim_opkg_finish [[${name}]])")
endfunction()

function(npu_op_code_gen)
  cmake_parse_arguments(A "" "PACKAGE;OUT_DIR" "SRC" ${ARGN})
  if(NOT A_OUT_DIR)
    set(A_OUT_DIR "${ASCEND_AUTOGEN_PATH}")
  endif()
  file(MAKE_DIRECTORY "${A_OUT_DIR}")
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/npusim_opgen")
  set(srcs)
  foreach(s IN LISTS A_SRC)
    get_filename_component(s "${s}" ABSOLUTE)
    list(APPEND srcs "${s}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${srcs})
  execute_process(
    COMMAND "${CMAKE_CXX_COMPILER}" -std=c++17 -O0 "-I${ASC_NPUSIM_PREFIX}/include"
            "-I${CMAKE_CURRENT_SOURCE_DIR}" ${srcs} "${_NPUSIM_OPKG_DIR}/npusim_opgen.cpp"
            "-L${ASC_NPUSIM_PREFIX}/lib64" -lacl_rt "-Wl,-rpath,${ASC_NPUSIM_PREFIX}/lib64"
            -o "${gen}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npu_op_code_gen: building the generator from the op_host sources "
                        "failed:\n${out}")
  endif()
  execute_process(COMMAND "${gen}" "${A_OUT_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npu_op_code_gen: the generator failed:\n${out}")
  endif()
  message(STATUS "npusim ${out}")
endfunction()

function(_npusim_opkg_host_library target kind)
  add_library(${target} SHARED ${ARGN})
  target_include_directories(${target} PRIVATE "${ASC_NPUSIM_PREFIX}/include"
                             "${ASCEND_AUTOGEN_PATH}")
  target_compile_features(${target} PRIVATE cxx_std_17)
  target_link_libraries(${target} PRIVATE "${ASC_NPUSIM_PREFIX}/lib64/libacl_rt.so")
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON
                        NPUSIM_OPKG_KIND ${kind} BUILD_RPATH "${ASC_NPUSIM_PREFIX}/lib64")
endfunction()

function(npu_op_library target kind)
  set(kinds TILING ACLNN GRAPH ONNX_PLUGIN TF_PLUGIN)
  if(NOT kind IN_LIST kinds)
    message(FATAL_ERROR "npu_op_library(${target} ${kind}): npusim builds ${kinds} libraries")
  endif()
  _npusim_opkg_host_library(${target} ${kind} ${ARGN})
endfunction()

function(npu_op_device_tiling_library target kind)
  if(NOT kind STREQUAL "SHARED")
    message(FATAL_ERROR "npu_op_device_tiling_library(${target} ${kind}): only SHARED")
  endif()
  _npusim_opkg_host_library(${target} DEVICE_TILING ${ARGN})
endfunction()

function(npu_op_kernel_sources target)
  cmake_parse_arguments(A "" "OP_TYPE;KERNEL_DIR;KERNEL_FILE" "COMPUTE_UNIT" ${ARGN})
  if(NOT A_OP_TYPE OR NOT A_KERNEL_FILE)
    message(FATAL_ERROR "npu_op_kernel_sources(${target}): OP_TYPE and KERNEL_FILE are required")
  endif()
  set_property(GLOBAL APPEND PROPERTY NPUSIM_OPKG_KSRC_${target}
               "${A_OP_TYPE}|${A_KERNEL_DIR}|${A_KERNEL_FILE}")
endfunction()

function(npu_op_kernel_library target)
  cmake_parse_arguments(A "" "SRC_BASE;TILING_LIBRARY" "" ${ARGN})
  if(NOT A_SRC_BASE)
    set(A_SRC_BASE "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  add_custom_target(${target} ALL)
  set_target_properties(${target} PROPERTIES NPUSIM_OPKG_KIND KERNEL)
  if(NOT TARGET binary)
    add_custom_target(binary)
  endif()
  add_dependencies(binary ${target})
  # Sources may be named after this call (npu_op_kernel_sources): the rules are made at the end
  # of this directory.
  cmake_language(EVAL CODE "cmake_language(DEFER CALL _npusim_opkg_kernels [[${target}]] [[${A_SRC_BASE}]])")
endfunction()

function(_npusim_opkg_kernels target base)
  get_property(entries GLOBAL PROPERTY NPUSIM_OPKG_KSRC_${target})
  if(NOT entries)
    message(FATAL_ERROR "npu_op_kernel_library(${target}): no npu_op_kernel_sources(${target} ...)")
  endif()
  set(asc "${ASC_NPUSIM_PREFIX}/bin/npusim-asc")
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  set(libs)
  foreach(e IN LISTS entries)
    string(REPLACE "|" ";" e "${e}")
    list(GET e 0 op)
    list(GET e 1 dir)
    list(GET e 2 file)
    set(src_dir "${base}")
    if(dir)
      set(src_dir "${base}/${dir}")
    endif()
    set(types "${ASCEND_AUTOGEN_PATH}/npusim_kernel_${op}.h")
    if(NOT EXISTS "${types}")
      message(FATAL_ERROR "npu_op_kernel_library(${target}): ${op} has no definition from "
                          "npu_op_code_gen (${types}); is its OP_ADD in the op_host sources?")
    endif()
    add_custom_command(OUTPUT "${out_dir}/${op}.so"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}"
      COMMAND "${asc}" "--npu-arch=${CMAKE_ASC_ARCHITECTURES}" -O2 -fPIC -Xhost-start -include
              npusim/ascendc/op_kernel_tiling.h -include "${types}" -Xhost-end
              "-I${src_dir}" -c "${src_dir}/${file}" -o "${out_dir}/${op}.o"
      COMMAND "${asc}" -shared "${out_dir}/${op}.o" -o "${out_dir}/${op}.so"
      DEPENDS "${src_dir}/${file}" "${types}" COMMENT "npusim-asc: kernel of ${op}" VERBATIM)
    list(APPEND libs "${out_dir}/${op}.so")
  endforeach()
  add_custom_target(${target}_npusim_so DEPENDS ${libs})
  add_dependencies(${target} ${target}_npusim_so)
  set_target_properties(${target} PROPERTIES NPUSIM_OPKG_FILES "${libs}")
endfunction()

function(npu_op_package_add name)
  cmake_parse_arguments(A "" "" "LIBRARY" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY NPUSIM_OPKG_${name}_LIBS ${A_LIBRARY})
endfunction()

function(_npusim_opkg_finish name)
  # Kernel rules of this directory are deferred too (npu_op_kernel_library): run after them.
  cmake_language(EVAL CODE "cmake_language(DEFER CALL _npusim_opkg_make [[${name}]])")
endfunction()

function(_npusim_opkg_make name)
  get_property(out GLOBAL PROPERTY NPUSIM_OPKG_${name}_OUT)
  get_property(type GLOBAL PROPERTY NPUSIM_OPKG_${name}_TYPE)
  if(type STREQUAL "STATIC")
    _npusim_opkg_static(${name} "${out}")
    return()
  endif()
  get_property(libs GLOBAL PROPERTY NPUSIM_OPKG_${name}_LIBS)
  set(stage "${CMAKE_BINARY_DIR}/npusim_opkg/${name}")
  set(cmds COMMAND "${CMAKE_COMMAND}" -E rm -rf "${stage}")
  set(tbe "${stage}/op_impl/ai_core/tbe")
  foreach(t IN LISTS libs)
    if(NOT TARGET ${t})
      message(FATAL_ERROR "npu_op_package_add(${name}): ${t} is not a target")
    endif()
    get_target_property(kind ${t} NPUSIM_OPKG_KIND)
    if(kind STREQUAL "KERNEL")
      get_target_property(files ${t} NPUSIM_OPKG_FILES)
      list(APPEND cmds COMMAND "${CMAKE_COMMAND}" -E make_directory "${tbe}/kernel/npusim"
                       COMMAND "${CMAKE_COMMAND}" -E copy ${files} "${tbe}/kernel/npusim/")
      continue()
    elseif(kind STREQUAL "TILING")
      set(dest "${tbe}/op_tiling/lib/linux/x86_64")
    elseif(kind STREQUAL "DEVICE_TILING")
      set(dest "${tbe}/op_master_device/lib")
    elseif(kind STREQUAL "ACLNN")
      set(dest "${stage}/op_api/lib")
      list(APPEND cmds COMMAND "${CMAKE_COMMAND}" -DAUTOGEN=${ASCEND_AUTOGEN_PATH}
                       -DDEST=${stage}/op_api/include -P "${_NPUSIM_OPKG_DIR}/npusim_opkg_headers.cmake")
    elseif(kind STREQUAL "GRAPH")
      set(dest "${stage}/op_proto/lib/linux/x86_64")
    elseif(kind STREQUAL "ONNX_PLUGIN")
      set(dest "${stage}/framework/onnx")
    elseif(kind STREQUAL "TF_PLUGIN")
      set(dest "${stage}/framework/tensorflow")
    else()
      message(FATAL_ERROR "npu_op_package_add(${name}): ${t} is not an npu_op_* library")
    endif()
    list(APPEND cmds COMMAND "${CMAKE_COMMAND}" -E make_directory "${dest}"
                     COMMAND "${CMAKE_COMMAND}" -E copy "$<TARGET_FILE:${t}>" "${dest}/")
  endforeach()
  string(TOLOWER "${CMAKE_SYSTEM_NAME}" os)
  set(run "${out}/custom_opp_${os}_${CMAKE_SYSTEM_PROCESSOR}.run")
  add_custom_target(package
    ${cmds}
    COMMAND "${CMAKE_COMMAND}" -DNAME=${name} -DSTAGE=${stage} -DRUN=${run}
            -DHEADER=${_NPUSIM_OPKG_DIR}/npusim_opkg_run.sh -P "${_NPUSIM_OPKG_DIR}/npusim_opkg_pack.cmake"
    COMMENT "npusim: operator package ${run}" VERBATIM)
  add_dependencies(package ${libs})
endfunction()

# TYPE STATIC: one static library <name> (the aclnn and tiling sources, the kernels' objects and a
# table registering the kernels) installed with its aclnn headers and
# lib/cmake/<name>/<name>-config.cmake, which gives <name>::<name> (linked whole, so the OP_ADD
# registrations stay). Graph prototype, device tiling and plugin libraries are not part of it.
function(_npusim_opkg_static name out)
  get_property(libs GLOBAL PROPERTY NPUSIM_OPKG_${name}_LIBS)
  set(srcs)
  set(table "${CMAKE_CURRENT_BINARY_DIR}/npusim_opkg_${name}_kernels.cpp")
  set(text "// Generated by npusim: the kernels of the static operator package ${name}.\n")
  string(APPEND text "extern \"C\" void npusim_opkg_add_kernel(const char* type, void (*fn)());\n")
  foreach(t IN LISTS libs)
    get_target_property(kind ${t} NPUSIM_OPKG_KIND)
    if(kind MATCHES "^(TILING|ACLNN)$")
      get_target_property(s ${t} SOURCES)
      get_target_property(dir ${t} SOURCE_DIR)
      foreach(f IN LISTS s)
        get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${dir}")
        list(APPEND srcs "${f}")
      endforeach()
    elseif(kind STREQUAL "KERNEL")
      get_target_property(files ${t} NPUSIM_OPKG_FILES)
      foreach(so IN LISTS files)
        get_filename_component(op "${so}" NAME_WE)
        string(REGEX REPLACE "([a-z0-9])([A-Z])" "\\1_\\2" fn "${op}")
        string(TOLOWER "${fn}" fn)
        string(REGEX REPLACE "\\.so$" ".o" obj "${so}")
        set_source_files_properties("${obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
        list(APPEND srcs "${obj}")
        string(APPEND text "extern \"C\" void ${fn}();\nstatic const int npusim_reg_${fn} = "
                           "(npusim_opkg_add_kernel(\"${op}\", &${fn}), 0);\n")
      endforeach()
      add_dependencies(${t} ${t}_npusim_so)
    endif()
  endforeach()
  file(WRITE "${table}" "${text}")
  add_library(${name} STATIC ${srcs} "${table}")
  target_include_directories(${name} PRIVATE "${ASC_NPUSIM_PREFIX}/include" "${ASCEND_AUTOGEN_PATH}")
  target_compile_features(${name} PRIVATE cxx_std_17)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  foreach(t IN LISTS libs)
    add_dependencies(${name} ${t})
  endforeach()
  file(GLOB headers "${ASCEND_AUTOGEN_PATH}/aclnn_*.h")
  set(config "${CMAKE_CURRENT_BINARY_DIR}/${name}-config.cmake")
  file(WRITE "${config}" "# ${name}: a static custom operator package built by npusim.
get_filename_component(_root \"\${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE)
if(NOT TARGET ${name}::${name})
  add_library(${name}::${name} INTERFACE IMPORTED)
  set_target_properties(${name}::${name} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES \"\${_root}/include;${ASC_NPUSIM_PREFIX}/include\"
    INTERFACE_LINK_DIRECTORIES \"${ASC_NPUSIM_PREFIX}/lib64\"
    INTERFACE_LINK_LIBRARIES \"-Wl,--whole-archive;\${_root}/lib/lib${name}.a;-Wl,--no-whole-archive;${ASC_NPUSIM_PREFIX}/lib64/libacl_rt.so\")
endif()
")
  install(TARGETS ${name} ARCHIVE DESTINATION "${out}/lib")
  install(FILES ${headers} DESTINATION "${out}/include")
  install(FILES "${config}" DESTINATION "${out}/lib/cmake/${name}")
endfunction()
