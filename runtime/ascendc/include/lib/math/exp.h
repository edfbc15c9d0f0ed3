// SPDX-License-Identifier: Apache-2.0
// The Exp high-level API of the Ascend C twin (half and float), Exp<T, taylorExpandLevel,
// isReuseSource>: taylorExpandLevel 0 is the basic Exp instruction; otherwise x is split into
// floor(x) and f = x - floor(x) in [0, 1), and dst = exp(floor(x)) * (1 + f + f^2/2! + ... +
// f^L/L!), L = taylorExpandLevel terms (f is taken as 1 when x is infinite or NaN).
// Timing, per pass over the temporary buffer (npusim/ascendc/high_level_tmp.h), on the vector
// pipe: level 0: Exp; level L: the 5 of math_common.h's to_integral (floor), Sub, Mins, Exp, Muls,
// Adds, 3 per further term (Muls, Mul, Add), Mul; half adds a Cast in and out. Temporary space:
// 20 bytes per element for float, 24 for half (level 0: 0 for float, 4 for half).
// Host side: GetExpMaxMinTmpSize (tiling/math/exp_tiling.h).
#pragma once

#include <cstdint>

#include "lib/math/math_common.h"

namespace npusim::ascendc {

template <std::uint8_t kLevel>
struct ExpImpl {
  static constexpr const char* kName = "Exp";
  static constexpr const char* kTiling = "GetExpMaxMinTmpSize";

  template <class T>
  static constexpr std::uint32_t per_elem() {
    static_assert(kIsHalfOrFloat<T>, "the Exp high-level API supports half and float");
    return float_tmp_per_elem<T>(kLevel == 0 ? 0 : 2 + kIntegralScratchFloats);
  }

  /// r = exp(x) through the Taylor series of the fractional part; whole, frac, s scratch (s: 3n).
  static void taylor(const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x,
                     const AscendC::LocalTensor<float>& whole,
                     const AscendC::LocalTensor<float>& frac, const AscendC::LocalTensor<float>& s,
                     std::uint32_t n) {
    const auto c = static_cast<std::int32_t>(n);
    to_integral(whole, x, s, AscendC::RoundMode::CAST_FLOOR, n);
    AscendC::Sub(frac, x, whole, c);
    AscendC::Mins(frac, frac, 1.0f, c);  // infinite or NaN x: inf - inf is NaN, taken as 1
    AscendC::Exp(whole, whole, c);
    const AscendC::LocalTensor<float> term = s;
    const AscendC::LocalTensor<float> sum = s[n];
    AscendC::Muls(term, frac, 1.0f, c);
    AscendC::Adds(sum, term, 1.0f, c);
    for (std::uint32_t k = 2; k <= kLevel; ++k) {
      AscendC::Muls(term, term, 1.0f / static_cast<float>(k), c);
      AscendC::Mul(term, term, frac, c);
      AscendC::Add(sum, sum, term, c);
    }
    AscendC::Mul(r, whole, sum, c);
  }

  template <class T>
  static void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const HighLevelTmp& tmp, std::uint32_t n) {
    float_pass(dst, src, tmp, n,
               [&](const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x) {
                 if constexpr (kLevel == 0) {
                   AscendC::Exp(r, x, static_cast<std::int32_t>(n));
                 } else {
                   taylor(r, x, float_scratch<T>(tmp, n, 0), float_scratch<T>(tmp, n, 1),
                          float_scratch<T>(tmp, n, 2), n);
                 }
               });
  }
};

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::unary_math<npusim::ascendc::ExpImpl<taylorExpandLevel>>(dstLocal, srcLocal, tmp,
                                                                          calCount);
}

template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const std::uint32_t calCount) {
  npusim::ascendc::unary_math_framework<npusim::ascendc::ExpImpl<taylorExpandLevel>>(
      dstLocal, srcLocal, calCount);
}

}  // namespace AscendC
