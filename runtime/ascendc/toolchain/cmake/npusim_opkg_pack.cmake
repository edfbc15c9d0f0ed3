# SPDX-License-Identifier: Apache-2.0
# Writes RUN: the installer script HEADER (__OPKG_NAME__ filled in) followed by a tar.gz of STAGE.
get_filename_component(dir "${RUN}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
set(tgz "${RUN}.tar.gz")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${tgz}" .
                WORKING_DIRECTORY "${STAGE}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npusim: cannot archive ${STAGE}")
endif()
file(READ "${HEADER}" script)
string(REPLACE "__OPKG_NAME__" "${NAME}" script "${script}")
file(WRITE "${RUN}" "${script}")
# Append the archive's bytes: cat through the shell keeps them binary.
execute_process(COMMAND sh -c "cat \"$1\" >> \"$2\"" sh "${tgz}" "${RUN}" RESULT_VARIABLE rc)
file(REMOVE "${tgz}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npusim: cannot write ${RUN}")
endif()
file(CHMOD "${RUN}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
     WORLD_READ WORLD_EXECUTE)
message(STATUS "npusim: wrote ${RUN}")
