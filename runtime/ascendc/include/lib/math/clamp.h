// SPDX-License-Identifier: Apache-2.0
// The ClampMin and ClampMax high-level APIs of the Ascend C twin (half and float):
//   ClampMin  dst = x < scalar ? scalar : x      ClampMax  dst = x > scalar ? scalar : x
// (a NaN element becomes the scalar). Timing: one vector-pipe instruction, Maxs (ClampMin) or
// Mins (ClampMax), over calCount elements; no temporary space is used (sharedTmpBuffer is
// accepted and left alone). Host side: GetClampMaxMinTmpSize (tiling/math/clamp_tiling.h).
#pragma once

#include <cstdint>

#include "lib/math/math_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<std::uint8_t>& /*sharedTmpBuffer*/, const T scalar,
                     const std::uint32_t calCount) {
  static_assert(npusim::ascendc::kIsHalfOrFloat<T>, "ClampMin supports half and float");
  Maxs(dstTensor, srcTensor, scalar, static_cast<std::int32_t>(calCount));
}

template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const T scalar, const std::uint32_t calCount) {
  ClampMin<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<std::uint8_t>(), scalar, calCount);
}

template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<std::uint8_t>& /*sharedTmpBuffer*/, const T scalar,
                     const std::uint32_t calCount) {
  static_assert(npusim::ascendc::kIsHalfOrFloat<T>, "ClampMax supports half and float");
  Mins(dstTensor, srcTensor, scalar, static_cast<std::int32_t>(calCount));
}

template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const T scalar, const std::uint32_t calCount) {
  ClampMax<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<std::uint8_t>(), scalar, calCount);
}

}  // namespace AscendC
