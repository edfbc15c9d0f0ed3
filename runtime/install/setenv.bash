# SPDX-License-Identifier: Apache-2.0
# npusim: CANN-style environment for programs built against this install tree.
# Source it:  source <prefix>/bin/setenv.bash   (or <prefix>/set_env.sh)
# It points the CANN variables at this tree, so CANN samples' CMakeLists and run.sh scripts find
# acl/acl.h, libacl_rt.so / libascendcl.so and ascendc.cmake here, and programs run on the
# simulated chip. Simulator knobs: NPUSIM_CONFIG, NPUSIM_SET, NPUSIM_OUT, NPUSIM_LOG (see README).

_npusim_prefix="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

export ASCEND_HOME_PATH="${_npusim_prefix}"
export ASCEND_TOOLKIT_HOME="${_npusim_prefix}"
export ASCEND_CANN_PACKAGE_PATH="${_npusim_prefix}"
export ASCEND_INSTALL_PATH="${_npusim_prefix}"
export ASCEND_AICPU_PATH="${_npusim_prefix}"
export ASCEND_OPP_PATH="${_npusim_prefix}/opp"
export ASCENDC_CMAKE_DIR="${_npusim_prefix}/tikcpp/ascendc_kernel_cmake"
export NPUSIM_HOME="${_npusim_prefix}"

case ":${LD_LIBRARY_PATH:-}:" in
  *":${_npusim_prefix}/lib64:"*) ;;
  *) export LD_LIBRARY_PATH="${_npusim_prefix}/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}" ;;
esac
case ":${PATH}:" in
  *":${_npusim_prefix}/bin:"*) ;;
  *) export PATH="${_npusim_prefix}/bin:${PATH}" ;;
esac

# The SoC of the configured chip (NPUSIM_CONFIG), as aclrtGetSocName reports it.
if [ -z "${SOC_VERSION:-}" ] || [ -n "${NPUSIM_CONFIG:-}" ]; then
  _npusim_soc="$("${_npusim_prefix}/bin/npusim" info --soc 2>/dev/null)" || _npusim_soc=""
  export SOC_VERSION="${_npusim_soc:-Ascend910B2}"
  unset _npusim_soc
fi
unset _npusim_prefix
