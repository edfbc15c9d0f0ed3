// SPDX-License-Identifier: Apache-2.0
// The Sigmoid high-level API of the Ascend C twin: dst = 1 / (1 + exp(-x)), built from basic
// vector instructions on the vector pipe, per pass over the temporary buffer
// (npusim/ascendc/high_level_tmp.h): float needs 4 bytes per element (the denominator), half 8
// (the denominator and the ones it divides, in float; the result is rounded to half once).
// The forms without calCount take every element of srcTensor. isReuseSource is accepted (the
// twin never writes the source).
// Host side: GetSigmoidMaxMinTmpSize (tiling/activation/sigmoid_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

template <class T>
constexpr std::uint32_t kSigmoidTmpPerElem = std::is_same_v<T, float> ? 4 : 8;

template <class T>
void sigmoid_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const HighLevelTmp& tmp, std::uint32_t n) {
  const auto count = static_cast<std::int32_t>(n);
  AscendC::LocalTensor<float> t = tmp.as<float>();
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Muls(t, src, -1.0f, count);
  } else {
    AscendC::Cast(t, src, AscendC::RoundMode::CAST_NONE, n);
    AscendC::Muls(t, t, -1.0f, count);
  }
  AscendC::Exp(t, t, count);
  AscendC::Adds(t, t, 1.0f, count);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Duplicate(dst, 1.0f, count);  // the source is no longer needed: dst may be it
    AscendC::Div(dst, dst, t, count);
  } else {
    AscendC::LocalTensor<float> ones = tmp.as<float>(n);
    AscendC::Duplicate(ones, 1.0f, count);
    AscendC::Div(t, ones, t, count);
    AscendC::Cast(dst, t, AscendC::RoundMode::CAST_RINT, n);
  }
}

template <class T>
void sigmoid(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
             const HighLevelTmp& tmp, std::uint32_t count) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>,
                "Sigmoid supports half and float");
  const std::uint32_t pass = high_level_pass_or_fail(
      "Sigmoid", "GetSigmoidMaxMinTmpSize", tmp.bytes(), kSigmoidTmpPerElem<T>, count);
  for (std::uint32_t at = 0; at < count; at += pass) {
    const std::uint32_t n = count - at < pass ? count - at : pass;
    sigmoid_pass(dst[at], src[at], tmp, n);
  }
}

template <class T>
void sigmoid_framework(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       std::uint32_t count) {
  const HighLevelTmp tmp("Sigmoid", "GetSigmoidMaxMinTmpSize",
                         (count * kSigmoidTmpPerElem<T> + 31) / 32 * 32,
                         high_level_min_tmp(kSigmoidTmpPerElem<T>, count));
  sigmoid(dst, src, tmp, count);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::sigmoid(dstTensor, srcTensor, tmp, calCount);
}

template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::sigmoid(dstTensor, srcTensor, tmp, srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const std::uint32_t calCount) {
  npusim::ascendc::sigmoid_framework(dstTensor, srcTensor, calCount);
}

template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  npusim::ascendc::sigmoid_framework(dstTensor, srcTensor, srcTensor.GetSize());
}

}  // namespace AscendC
