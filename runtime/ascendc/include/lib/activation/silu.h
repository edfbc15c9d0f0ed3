// SPDX-License-Identifier: Apache-2.0
// The Silu high-level API of the Ascend C twin: dst = x / (1 + exp(-x)), which is Swish with
// beta = 1 (swish.h: the same instructions and temporary space).
// Host side: GetSiluTmpSize (tiling/activation/swish_tiling.h).
#pragma once

#include <cstdint>

#include "lib/activation/swish.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                 std::uint32_t dataSize) {
  npusim::ascendc::swish("Silu", "GetSiluTmpSize", dstLocal, srcLocal, dataSize, 1.0f);
}

}  // namespace AscendC
