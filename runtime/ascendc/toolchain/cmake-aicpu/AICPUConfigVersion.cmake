# SPDX-License-Identifier: Apache-2.0
# The AICPU package's version: the ASC package's.
include(${CMAKE_CURRENT_LIST_DIR}/../ASC/ASCConfigVersion.cmake)
