// SPDX-License-Identifier: Apache-2.0
// The rounding math APIs of the Ascend C twin (half and float), element-wise:
//   Ceil   dst = the smallest integral value >= x      Floor  dst = the largest integral <= x
//   Trunc  dst = x rounded toward zero                 Rint   dst = nearest, ties to even
//   Round  dst = nearest, ties away from zero          Frac   dst = x - Trunc(x)
// Infinities, NaN and |x| >= 2^23 (already integral) come out unchanged (Frac: x - x).
// Timing: per pass over the temporary buffer (npusim/ascendc/high_level_tmp.h), on the vector
// pipe: Cast float->int32 with the rounding mode, Cast back, Abs, Compares, Select (math_common.h
// to_integral); Frac adds a Sub; half adds a Cast in and a Cast out. Temporary space: 12 bytes
// per element for float (16 for Frac), 4 more for half.
// Host side: Get<Api>MaxMinTmpSize (tiling/math/rounding_tiling.h).
#pragma once

#include <cstdint>

#include "lib/math/math_common.h"

namespace npusim::ascendc {

template <AscendC::RoundMode kMode>
struct RoundingNames;
template <>
struct RoundingNames<AscendC::RoundMode::CAST_CEIL> {
  static constexpr const char* kName = "Ceil";
  static constexpr const char* kTiling = "GetCeilMaxMinTmpSize";
};
template <>
struct RoundingNames<AscendC::RoundMode::CAST_FLOOR> {
  static constexpr const char* kName = "Floor";
  static constexpr const char* kTiling = "GetFloorMaxMinTmpSize";
};
template <>
struct RoundingNames<AscendC::RoundMode::CAST_TRUNC> {
  static constexpr const char* kName = "Trunc";
  static constexpr const char* kTiling = "GetTruncMaxMinTmpSize";
};
template <>
struct RoundingNames<AscendC::RoundMode::CAST_RINT> {
  static constexpr const char* kName = "Rint";
  static constexpr const char* kTiling = "GetRintMaxMinTmpSize";
};
template <>
struct RoundingNames<AscendC::RoundMode::CAST_ROUND> {
  static constexpr const char* kName = "Round";
  static constexpr const char* kTiling = "GetRoundMaxMinTmpSize";
};

/// Ceil, Floor, Trunc, Rint, Round.
template <AscendC::RoundMode kMode>
struct RoundingImpl : RoundingNames<kMode> {
  template <class T>
  static constexpr std::uint32_t per_elem() {
    static_assert(kIsHalfOrFloat<T>, "the rounding APIs support half and float");
    return float_tmp_per_elem<T>(kIntegralScratchFloats);
  }
  template <class T>
  static void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const HighLevelTmp& tmp, std::uint32_t n) {
    const AscendC::LocalTensor<float> scratch = float_scratch<T>(tmp, n, 0);
    float_pass(dst, src, tmp, n,
               [&](const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x) {
                 to_integral(r, x, scratch, kMode, n);
               });
  }
};

struct FracImpl {
  static constexpr const char* kName = "Frac";
  static constexpr const char* kTiling = "GetFracMaxMinTmpSize";
  template <class T>
  static constexpr std::uint32_t per_elem() {
    static_assert(kIsHalfOrFloat<T>, "Frac supports half and float");
    return float_tmp_per_elem<T>(kIntegralScratchFloats + 1);
  }
  template <class T>
  static void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const HighLevelTmp& tmp, std::uint32_t n) {
    const AscendC::LocalTensor<float> whole = float_scratch<T>(tmp, n, 0);
    const AscendC::LocalTensor<float> scratch = float_scratch<T>(tmp, n, 1);
    float_pass(dst, src, tmp, n,
               [&](const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x) {
                 to_integral(whole, x, scratch, AscendC::RoundMode::CAST_TRUNC, n);
                 AscendC::Sub(r, x, whole, static_cast<std::int32_t>(n));
               });
  }
};

}  // namespace npusim::ascendc

namespace AscendC {

NPUSIM_MATH_UNARY_API(Ceil, RoundingImpl<RoundMode::CAST_CEIL>)
NPUSIM_MATH_UNARY_API(Floor, RoundingImpl<RoundMode::CAST_FLOOR>)
NPUSIM_MATH_UNARY_API(Trunc, RoundingImpl<RoundMode::CAST_TRUNC>)
NPUSIM_MATH_UNARY_API(Rint, RoundingImpl<RoundMode::CAST_RINT>)
NPUSIM_MATH_UNARY_API(Round, RoundingImpl<RoundMode::CAST_ROUND>)
NPUSIM_MATH_UNARY_API(Frac, FracImpl)

}  // namespace AscendC
