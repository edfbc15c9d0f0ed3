// SPDX-License-Identifier: Apache-2.0
// The Xor high-level API of the Ascend C twin (int16_t and uint16_t): dst = a ^ b, built as
// (a | b) - (a & b) (the two share no set bit, so the difference is exact modulo 2^16).
// Timing, per pass over the temporary buffer (npusim/ascendc/high_level_tmp.h): Or, And, Sub on
// the vector pipe. Temporary space: 2 bytes per element (a | b).
// Host side: GetXorMaxMinTmpSize (tiling/math/xor_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/math/math_common.h"
#include "npusim/ascendc/vector_basic.h"

namespace npusim::ascendc {

template <class T>
void bitwise_xor(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                 const AscendC::LocalTensor<T>& b, const HighLevelTmp& tmp, std::uint32_t count) {
  static_assert(std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t>,
                "Xor supports int16_t and uint16_t");
  math_passes("Xor", "GetXorMaxMinTmpSize", tmp, sizeof(T), count,
              [&](std::uint32_t at, std::uint32_t n) {
                const auto c = static_cast<std::int32_t>(n);
                const AscendC::LocalTensor<T> either = tmp.as<T>();
                AscendC::Or(either, a[at], b[at], c);
                AscendC::And(dst[at], a[at], b[at], c);
                AscendC::Sub(dst[at], either, dst[at], c);
              });
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                const LocalTensor<T>& src1Tensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                const std::uint32_t calCount) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::bitwise_xor(dstTensor, src0Tensor, src1Tensor, tmp, calCount);
}

template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                const LocalTensor<T>& src1Tensor,
                const LocalTensor<std::uint8_t>& sharedTmpBuffer) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}

template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                const LocalTensor<T>& src1Tensor, const std::uint32_t calCount) {
  const npusim::ascendc::MathTmp tmp("Xor", "GetXorMaxMinTmpSize", sizeof(T), calCount);
  npusim::ascendc::bitwise_xor(dstTensor, src0Tensor, src1Tensor, tmp, calCount);
}

template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                const LocalTensor<T>& src1Tensor) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

}  // namespace AscendC
