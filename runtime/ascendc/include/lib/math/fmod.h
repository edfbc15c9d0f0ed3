// SPDX-License-Identifier: Apache-2.0
// The Fmod high-level API of the Ascend C twin (half and float): dst = a - Trunc(a / b) * b,
// element-wise (b = 0 gives NaN). The quotient is rounded to float before truncation, so when
// a / b is large the result carries that rounding (the NORMAL algorithm; FmodConfig's
// ITERATION_COMPENSATION is accepted and computes the same).
// Timing, per pass over the temporary buffer (npusim/ascendc/high_level_tmp.h), on the vector
// pipe: Div, the 5 of math_common.h's to_integral (CAST_TRUNC), Mul, Sub; half adds two Casts in
// and one out. Temporary space: 16 bytes per element for float, 24 for half.
// Host side: GetFmodMaxMinTmpSize (tiling/math/fmod_tiling.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/math/math_common.h"

namespace AscendC {

constexpr std::uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  std::uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};

}  // namespace AscendC

namespace npusim::ascendc {

template <class T>
constexpr std::uint32_t kFmodTmpPerElem =
    4 * (1 + kIntegralScratchFloats + (std::is_same_v<T, float> ? 0 : 2));

/// r = a - trunc(a / b) * b for n floats; q is one float of scratch, s three (r may be a or b).
inline void fmod_float(const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& a,
                       const AscendC::LocalTensor<float>& b, const AscendC::LocalTensor<float>& q,
                       const AscendC::LocalTensor<float>& s, std::uint32_t n) {
  const auto c = static_cast<std::int32_t>(n);
  AscendC::Div(q, a, b, c);
  to_integral(q, q, s, AscendC::RoundMode::CAST_TRUNC, n);
  AscendC::Mul(q, q, b, c);
  AscendC::Sub(r, a, q, c);
}

template <class T>
void fmod(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
          const AscendC::LocalTensor<T>& b, const HighLevelTmp& tmp, std::uint32_t count) {
  static_assert(kIsHalfOrFloat<T>, "Fmod supports half and float");
  math_passes("Fmod", "GetFmodMaxMinTmpSize", tmp, kFmodTmpPerElem<T>, count,
              [&](std::uint32_t at, std::uint32_t n) {
                const AscendC::LocalTensor<float> q = tmp.as<float>();
                const AscendC::LocalTensor<float> s = tmp.as<float>(n);
                if constexpr (std::is_same_v<T, float>) {
                  fmod_float(dst[at], a[at], b[at], q, s, n);
                } else {
                  const AscendC::LocalTensor<float> fa = tmp.as<float>(4 * n);
                  const AscendC::LocalTensor<float> fb = tmp.as<float>(5 * n);
                  AscendC::Cast(fa, a[at], AscendC::RoundMode::CAST_NONE, n);
                  AscendC::Cast(fb, b[at], AscendC::RoundMode::CAST_NONE, n);
                  fmod_float(fa, fa, fb, q, s, n);
                  AscendC::Cast(dst[at], fa, AscendC::RoundMode::CAST_RINT, n);
                }
              });
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                 const LocalTensor<T>& src1Tensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                 const std::uint32_t calCount) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::fmod(dstTensor, src0Tensor, src1Tensor, tmp, calCount);
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                 const LocalTensor<T>& src1Tensor,
                 const LocalTensor<std::uint8_t>& sharedTmpBuffer) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,
                                 src0Tensor.GetSize());
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                 const LocalTensor<T>& src1Tensor, const std::uint32_t calCount) {
  const npusim::ascendc::MathTmp tmp("Fmod", "GetFmodMaxMinTmpSize",
                                     npusim::ascendc::kFmodTmpPerElem<T>, calCount);
  npusim::ascendc::fmod(dstTensor, src0Tensor, src1Tensor, tmp, calCount);
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                 const LocalTensor<T>& src1Tensor) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

}  // namespace AscendC
