// SPDX-License-Identifier: Apache-2.0
// register/device_op_impl_registry.h: DEVICE_IMPL_OP_OPTILING(Op).Tiling(fn) registers a tiling
// function that CANN also runs on the device (tiling sink). npusim records it; the aclnn runtime
// runs an operator's tiling on the host in either case (same function, same results).
#pragma once

#include "register/op_def_registry.h"

namespace npusim_opdef {
class DeviceTilingRegistrar {
 public:
  explicit DeviceTilingRegistrar(const char* type) : type_(type) {}
  DeviceTilingRegistrar& Tiling(ops::TilingFunc f) {
    npusim_opdef_add_device_tiling(type_, f);
    return *this;
  }

 private:
  const char* type_;
};
}  // namespace npusim_opdef

#define DEVICE_IMPL_OP_OPTILING(opType)                                                     \
  static ::npusim_opdef::DeviceTilingRegistrar NPUSIM_OPDEF_CAT(g_npusim_dev_tiling_, opType) = \
      ::npusim_opdef::DeviceTilingRegistrar(#opType)
