// SPDX-License-Identifier: Apache-2.0
// The AscendQuant high-level API of the Ascend C twin (per-tensor form):
//   dst[i] = int8(rint(half(src[i]) * half(scale) + half(offset)))
// computed in half as on Atlas A2/A3 (the conversion to int8 goes through half): per pass, on
// the vector pipe, Cast float -> half (float src only), Muls, Adds, Cast half -> int8 with
// CAST_RINT (saturating to [-128, 127]). Temporary space: two bytes (one half) per element, in
// passes of multiples of 64 elements (npusim/ascendc/high_level_tmp.h); GetAscendQuantMaxMinTmpSize
// (tiling/quantization/quant_tiling.h) reports the range. T is half or float; the per-channel
// forms (scale / offset tensors) are not in the twin (compile-time error: no such overload).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc::quant {

using AscendC::LocalTensor;

inline constexpr std::uint32_t kQuantTmpPerElem = 2;

template <class T>
void ascend_quant(const LocalTensor<std::int8_t>& dst, const LocalTensor<T>& src,
                  const HighLevelTmp& tmp, float scale, float offset, std::uint32_t count) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>,
                "AscendQuant supports half and float sources");
  const std::uint32_t pass = high_level_pass_or_fail("AscendQuant", "GetAscendQuantMaxMinTmpSize",
                                                     tmp.bytes(), kQuantTmpPerElem, count);
  const LocalTensor<Half> h = tmp.as<Half>();
  for (std::uint32_t at = 0; at < count; at += pass) {
    const std::uint32_t n = count - at < pass ? count - at : pass;
    const auto c = static_cast<std::int32_t>(n);
    if constexpr (std::is_same_v<T, float>) {
      AscendC::Cast(h, src[at], AscendC::RoundMode::CAST_NONE, n);
      AscendC::Muls(h, h, Half(scale), c);
    } else {
      AscendC::Muls(h, src[at], Half(scale), c);
    }
    AscendC::Adds(h, h, Half(offset), c);
    AscendC::Cast(dst[at], h, AscendC::RoundMode::CAST_RINT, n);
  }
}

inline HighLevelTmp framework_quant_tmp(std::uint32_t count) {
  return HighLevelTmp("AscendQuant", "GetAscendQuantMaxMinTmpSize",
                      (count * kQuantTmpPerElem + 31) / 32 * 32,
                      high_level_min_tmp(kQuantTmpPerElem, count));
}

}  // namespace npusim::ascendc::quant

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float scale,
                        const float offset, const std::uint32_t calCount) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::quant::ascend_quant(dstTensor, srcTensor, tmp, scale, offset, calCount);
}

template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float scale,
                        const float offset) {
  AscendQuant<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset,
                                srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const float scale, const float offset, const std::uint32_t calCount) {
  const npusim::ascendc::HighLevelTmp tmp = npusim::ascendc::quant::framework_quant_tmp(calCount);
  npusim::ascendc::quant::ascend_quant(dstTensor, srcTensor, tmp, scale, offset, calCount);
}

template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<std::int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const float scale, const float offset) {
  AscendQuant<T, isReuseSource>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize());
}

}  // namespace AscendC
