// SPDX-License-Identifier: Apache-2.0
// The system workspace: GM the library APIs may use (the Matmul's C blocks on their way to UB).
// SetSysWorkspace sets it for the running block; a kernel parameter declared __kfc_workspace__
// sets it at the kernel's start (the launch rewrite inserts the call, as CANN's compiler binds
// that parameter); GetSysWorkSpacePtr returns it (nullptr when not set in this block).
#pragma once

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/device.h"

namespace npusim::ascendc {

/// The system workspace SetSysWorkspace gave, for the block that gave it.
struct SysWorkspace {
  const BlockContext* owner = nullptr;
  GM_ADDR addr = nullptr;
};
inline thread_local SysWorkspace sys_workspace;

}  // namespace npusim::ascendc

namespace AscendC {

/// Sets the system workspace of this block (GM the library APIs may use).
inline void SetSysWorkspace(GM_ADDR workspace) {
  npusim::ascendc::sys_workspace = {&npusim::ascendc::block(), workspace};
}

}  // namespace AscendC

/// The block's system workspace: what SetSysWorkspace set in this block, else nullptr.
inline GM_ADDR GetSysWorkSpacePtr() {
  const auto& ws = npusim::ascendc::sys_workspace;
  return ws.owner == &npusim::ascendc::block() ? ws.addr : nullptr;
}

namespace AscendC {
using ::GetSysWorkSpacePtr;
}  // namespace AscendC
