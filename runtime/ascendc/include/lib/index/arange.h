// SPDX-License-Identifier: Apache-2.0
// The Arange high-level API of the Ascend C twin (int16_t, half, int32_t, float):
// dst[i] = firstValue + i x diffValue for i < count.
// Timing, on the vector pipe: CreateVecIndex (the indices 0 .. count - 1), Muls by diffValue,
// Adds firstValue: 3 instructions of count elements; no temporary space.
// Host side: GetArangeMaxMinTmpSize (tiling/index/arange_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/half.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_basic.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

template <typename T>
inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue,
                   const std::int32_t count) {
  static_assert(std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, float> || std::is_same_v<T, npusim::ascendc::Half>,
                "Arange supports int16_t, half, int32_t and float");
  if (count <= 0) npusim::ascendc::fail("Arange", "count must be positive, got %d", count);
  CreateVecIndex(dst, T(0), static_cast<std::uint32_t>(count));
  Muls(dst, dst, diffValue, count);
  Adds(dst, dst, firstValue, count);
}

}  // namespace AscendC
