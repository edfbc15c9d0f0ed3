// SPDX-License-Identifier: Apache-2.0
// Two small basic APIs of the Ascend C twin that kernels of the high-level APIs use:
//
//   PopStackBuffer<T, pos>(tensor)   tensor <- the free space of pos's memory above everything the
//       block's TPipe has allocated (the "stack" CANN's high-level APIs take temporary space from),
//       as elements of T; false when nothing is free. The space stays free for the allocator:
//       a later InitBuffer may overlap it, as on the device.
//   AscendCUtils::SetOverflow(mode)  CTRL[48]: 1 keeps inf/nan results of floating-point
//       arithmetic, 0 saturates them (inf -> +-max, nan -> 0). The twin's vector arithmetic always
//       keeps inf/nan (IEEE); it records the mode (BlockContext::overflow_mode) but does not
//       saturate.
//
// Neither records an instruction (bookkeeping and a control-register write).
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"

namespace AscendC {

template <class T, TPosition kPos>
inline bool PopStackBuffer(LocalTensor<T>& tensor) {
  using namespace npusim::ascendc;
  BlockContext& ctx = block();
  ScalarPause pause(ctx);
  const Mem m = mem_of(kPos);
  const std::uint32_t used = (ctx.used(m) + 31) / 32 * 32;
  const std::uint32_t cap = ctx.capacity(m);
  if (cap <= used || (cap - used) < sizeof(T)) return false;
  const auto elems = static_cast<std::uint32_t>((cap - used) / sizeof(T));
  tensor = LocalTensor<T>(kPos, used, elems);
  return true;
}

struct AscendCUtils {
  static void SetOverflow(std::uint64_t ctrl_value) {
    if (ctrl_value > 1) {
      npusim::ascendc::fail("AscendCUtils::SetOverflow", "mode must be 0 or 1, got %llu",
                            static_cast<unsigned long long>(ctrl_value));
    }
    npusim::ascendc::block().overflow_mode = ctrl_value;
  }
};

}  // namespace AscendC
