# SPDX-License-Identifier: Apache-2.0
# The ASC toolchain in the install tree (included by runtime/install/CMakeLists.txt):
#   bin/npusim-asc            the ASC compiler driver (CMAKE_ASC_COMPILER)
#   bin/mssanitizer           runs a program with the runtime's sanitizer checks (msSanitizer)
#   share/cmake/ASC/          find_package(ASC) and the ASC language's CMake modules
#   <arch>-linux/devlib/libascend_hal.so   the driver library's name: a link to libacl_rt.so
#   share/cmake/AICPU/        find_package(AICPU): the AICPU language (.aicpu sources)
#   lib64/lib<name>.so        the libraries CANN 9 kernel programs name on their link line
#                             (tiling_api, register, platform, unified_dlog, graph_base,
#                             ascendc_runtime, runtime, error_manager, ascendalog, mmpa): links to
#                             libacl_rt.so, which holds what npusim implements of them; a
#                             function it lacks is an undefined reference naming it at link time.
install(PROGRAMS ${CMAKE_CURRENT_LIST_DIR}/npusim-asc DESTINATION bin)
install(PROGRAMS ${CMAKE_CURRENT_LIST_DIR}/mssanitizer DESTINATION bin)
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/cmake/ DESTINATION share/cmake/ASC)
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/cmake-aicpu/ DESTINATION share/cmake/AICPU)
foreach(lib tiling_api register platform unified_dlog graph_base ascendc_runtime runtime
            error_manager ascendalog rt2_registry mmpa)
  install(CODE "execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink libacl_rt.so
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib64/lib${lib}.so\")")
endforeach()
# <arch>-linux/devlib/libascend_hal.so: the driver library CANN programs link for a real device
# (CATLASS's examples: link_directories(${ASCEND_HOME_PATH}/${CMAKE_SYSTEM_PROCESSOR}-linux/devlib)),
# the runtime here as well.
install(CODE "
  set(_d \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_SYSTEM_PROCESSOR}-linux/devlib\")
  file(MAKE_DIRECTORY \"\${_d}\")
  execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink ../../lib64/libacl_rt.so
                  \"\${_d}/libascend_hal.so\")")
# nlohmann/json's headers as the include.zip CANN's ONNX plugin examples download (ASCConfig.cmake
# points NLOHMANN_JSON_URL at it).
get_target_property(_npusim_json_inc nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
list(GET _npusim_json_inc 0 _npusim_json_inc)
install(CODE "
  get_filename_component(_npusim_tp \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/npusim/third_party\"
                         ABSOLUTE)
  file(MAKE_DIRECTORY \"\${_npusim_tp}\")
  execute_process(COMMAND \"${CMAKE_COMMAND}\" -E tar cf \"\${_npusim_tp}/nlohmann_json_include.zip\"
    --format=zip include/nlohmann WORKING_DIRECTORY \"${_npusim_json_inc}/..\")")
