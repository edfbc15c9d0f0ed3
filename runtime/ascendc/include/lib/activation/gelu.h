// SPDX-License-Identifier: Apache-2.0
// The Gelu high-level API of the Ascend C twin (tanh approximation, as CANN's):
//   dst = x / (1 + exp(-1.5957691216057308 * (x + 0.044715 * x^3)))
// built from basic vector instructions on the vector pipe, per pass over the temporary buffer
// (npusim/ascendc/high_level_tmp.h): float needs 4 bytes per element (one float intermediate),
// half 8 (the input and the intermediate in float; the result is rounded to half once).
// highPrecision and highPerformance are accepted; the twin computes the same either way.
// Host side: GetGeluMaxMinTmpSize (tiling/activation/gelu_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

template <class T>
constexpr std::uint32_t kGeluTmpPerElem = std::is_same_v<T, float> ? 4 : 8;

/// t = 1 + exp(-1.5957691216057308 * (x + 0.044715 * x^3)): Gelu's denominator (7 instructions).
inline void gelu_denominator(const AscendC::LocalTensor<float>& t,
                             const AscendC::LocalTensor<float>& x, std::int32_t count) {
  AscendC::Mul(t, x, x, count);
  AscendC::Mul(t, t, x, count);
  AscendC::Muls(t, t, 0.044715f, count);
  AscendC::Add(t, t, x, count);
  AscendC::Muls(t, t, -1.5957691216057308f, count);
  AscendC::Exp(t, t, count);
  AscendC::Adds(t, t, 1.0f, count);
}

/// One pass: dst[0, n) from src[0, n), with float intermediates in `tmp`.
template <class T>
void gelu_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
               const HighLevelTmp& tmp, std::uint32_t n) {
  const auto count = static_cast<std::int32_t>(n);
  AscendC::LocalTensor<float> t = tmp.as<float>();
  if constexpr (std::is_same_v<T, float>) {
    gelu_denominator(t, src, count);
    AscendC::Div(dst, src, t, count);
  } else {
    AscendC::LocalTensor<float> x = tmp.as<float>(n);
    AscendC::Cast(x, src, AscendC::RoundMode::CAST_NONE, n);
    gelu_denominator(t, x, count);
    AscendC::Div(t, x, t, count);
    AscendC::Cast(dst, t, AscendC::RoundMode::CAST_RINT, n);
  }
}

template <class T>
void gelu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
          const HighLevelTmp& tmp, std::uint32_t count) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, npusim::ascendc::Half>,
                "Gelu supports half and float");
  const std::uint32_t pass = high_level_pass_or_fail("Gelu", "GetGeluMaxMinTmpSize", tmp.bytes(),
                                                     kGeluTmpPerElem<T>, count);
  for (std::uint32_t at = 0; at < count; at += pass) {
    const std::uint32_t n = count - at < pass ? count - at : pass;
    gelu_pass(dst[at], src[at], tmp, n);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                 const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t dataSize) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::gelu(dstLocal, srcLocal, tmp, dataSize);
}

template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                 const std::uint32_t dataSize) {
  using npusim::ascendc::kGeluTmpPerElem;
  const npusim::ascendc::HighLevelTmp tmp(
      "Gelu", "GetGeluMaxMinTmpSize", (dataSize * kGeluTmpPerElem<T> + 31) / 32 * 32,
      npusim::ascendc::high_level_min_tmp(kGeluTmpPerElem<T>, dataSize));
  npusim::ascendc::gelu(dstLocal, srcLocal, tmp, dataSize);
}

}  // namespace AscendC
