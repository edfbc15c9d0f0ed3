# SPDX-License-Identifier: Apache-2.0
# The Debian package of the install tree (tools/dev.sh package; tests/package checks it):
#   npusim_<version>_amd64.deb, the install tree under /opt/npusim. Its runtime dependencies are
#   the shared libraries its ELF files need (dpkg-shlibdeps: SystemC, yaml-cpp, FFmpeg, libjpeg,
#   libpng, libstdc++ ...) and what its scripts run (below). bin/setenv.bash finds the tree from
#   its own location, so the package needs nothing configured for /opt/npusim.
#   cpack -G DEB --config <build>/CPackConfig.cmake -B <dir>
set(CPACK_PACKAGE_NAME npusim)
set(CPACK_PACKAGE_VENDOR "npusim")
set(CPACK_PACKAGE_CONTACT "npusim <npusim@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Simulated Ascend-class NPU behind a CANN-compatible ACL runtime")
set(CPACK_PACKAGE_DESCRIPTION
    "npusim is a cycle-approximate SystemC simulator of an Ascend-class NPU with a drop-in CANN \
ACL runtime: CANN host programs build against /opt/npusim (source /opt/npusim/set_env.sh) and run \
on the simulated chip, writing a timeline, statistics and msprof-style summaries.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /opt/npusim)
# Release-sized: the build's debug info stays in the build tree (libacl_rt.so: ~110 MB -> ~10 MB).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # npusim_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Beside the libraries: python3 runs the kernel toolchain's launch rewrite
# (tikcpp/ascendc_kernel_cmake/rewrite_launch.py) and `npusim report`; matplotlib draws the
# report's figures; g++ and cmake build the programs and kernels a user brings.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, cmake, python3-matplotlib")
include(CPack)
