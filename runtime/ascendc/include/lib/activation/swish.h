// SPDX-License-Identifier: Apache-2.0
// The Swish high-level API of the Ascend C twin: dst = x / (1 + exp(-beta * x)), built from basic
// vector instructions on the vector pipe. Float needs no temporary space when dst is not src
// (dst holds the denominator), 4 bytes per element when it is; half needs 8 (the input and the
// denominator in float; the result is rounded to half once). The space is the framework's (the
// free UB above the TPipe's buffers, npusim/ascendc/high_level_tmp.h). isReuseSource is
// accepted (the twin never writes the source). Silu (silu.h) is Swish with beta = 1.
// Host side: GetSwishTmpSize (tiling/activation/swish_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

template <class T>
constexpr std::uint32_t kSwishTmpPerElem = std::is_same_v<T, float> ? 4 : 8;

template <class T>
void swish_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<float>& t, const AscendC::LocalTensor<float>& xf,
                float beta, std::uint32_t n) {
  const auto count = static_cast<std::int32_t>(n);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Muls(t, src, -beta, count);
  } else {
    AscendC::Cast(xf, src, AscendC::RoundMode::CAST_NONE, n);
    AscendC::Muls(t, xf, -beta, count);
  }
  AscendC::Exp(t, t, count);
  AscendC::Adds(t, t, 1.0f, count);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Div(dst, src, t, count);
  } else {
    AscendC::Div(t, xf, t, count);
    AscendC::Cast(dst, t, AscendC::RoundMode::CAST_RINT, n);
  }
}

template <class T>
void swish(const char* api, const char* tiling, const AscendC::LocalTensor<T>& dst,
           const AscendC::LocalTensor<T>& src, std::uint32_t count, float beta) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>,
                "Swish and Silu support half and float");
  if constexpr (std::is_same_v<T, float>) {
    if (dst.twin_data() != src.twin_data()) {  // dst holds the denominator
      swish_pass(dst, src, dst, AscendC::LocalTensor<float>(), beta, count);
      return;
    }
  }
  const std::uint32_t per = kSwishTmpPerElem<T>;
  const HighLevelTmp tmp(api, tiling, (count * per + 31) / 32 * 32,
                         high_level_min_tmp(per, count));
  const std::uint32_t pass = high_level_pass_or_fail(api, tiling, tmp.bytes(), per, count);
  for (std::uint32_t at = 0; at < count; at += pass) {
    const std::uint32_t n = count - at < pass ? count - at : pass;
    swish_pass(dst[at], src[at], tmp.as<float>(), tmp.as<float>(std::is_same_v<T, float> ? 0 : n),
               beta, n);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                  std::uint32_t dataSize, const T scalarValue) {
  npusim::ascendc::swish("Swish", "GetSwishTmpSize", dstLocal, srcLocal, dataSize,
                         static_cast<float>(scalarValue));
}

}  // namespace AscendC
