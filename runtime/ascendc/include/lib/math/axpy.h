// SPDX-License-Identifier: Apache-2.0
// The Axpy high-level API of the Ascend C twin, Axpy<T, U>(dst, src, scalar, sharedTmpBuffer,
// calCount): dst[i] = dst[i] + src[i] * scalar for (T, U) = (half, half), (float, float) or
// (float, half). Equal types: the basic Axpy instruction (vector_basic.h), one vector-pipe
// instruction, no temporary space. (float, half): per pass over the temporary buffer
// (npusim/ascendc/high_level_tmp.h), Cast src to float, Muls by the scalar in float, Add into
// dst: 3 vector-pipe instructions, 4 bytes of temporary space per element.
// Host side: GetAxpyMaxMinTmpSize (tiling/math/axpy_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/math/math_common.h"
#include "npusim/ascendc/vector_basic.h"

namespace npusim::ascendc {

template <class T, class U>
void axpy_widening(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                   U scalar, const HighLevelTmp& tmp, std::uint32_t count) {
  const float s = static_cast<float>(scalar);
  math_passes("Axpy", "GetAxpyMaxMinTmpSize", tmp, 4, count,
              [&](std::uint32_t at, std::uint32_t n) {
                const auto c = static_cast<std::int32_t>(n);
                const AscendC::LocalTensor<float> t = tmp.as<float>();
                AscendC::Cast(t, src[at], AscendC::RoundMode::CAST_NONE, n);
                AscendC::Muls(t, t, s, c);
                AscendC::Add(dst[at], dst[at], t, c);
              });
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor,
                 const U scalarValue, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                 const std::uint32_t calCount) {
  static_assert(std::is_same_v<T, U> ? npusim::ascendc::kIsHalfOrFloat<T>
                                     : std::is_same_v<T, float> &&
                                           std::is_same_v<U, npusim::ascendc::Half>,
                "Axpy supports (half, half), (float, float) and (float, half)");
  if constexpr (std::is_same_v<T, U>) {
    Axpy(dstTensor, srcTensor, scalarValue, static_cast<std::int32_t>(calCount));
  } else {
    const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
    npusim::ascendc::axpy_widening(dstTensor, srcTensor, scalarValue, tmp, calCount);
  }
}

}  // namespace AscendC
