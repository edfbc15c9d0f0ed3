# SPDX-License-Identifier: Apache-2.0
# The ASC package's version: the CANN 9 programming model npusim's twin follows. Any requested
# 9.x or lower version is compatible.
set(PACKAGE_VERSION "9.0.0")
if(PACKAGE_FIND_VERSION AND PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
