// SPDX-License-Identifier: Apache-2.0
// The Erf high-level API of the Ascend C twin (half and float): the error function, as the
// rational-exponential approximation erf(|x|) = 1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5))))
// exp(-x^2), t = 1 / (1 + p |x|) (absolute error below 1.5e-7 in exact arithmetic, 6e-7 in
// float), with the sign of x restored by clamp(x * 1e30, -1, 1).
// Timing: per pass over the temporary buffer (npusim/ascendc/high_level_tmp.h), 24 vector-pipe
// instructions (Abs, Muls/Adds/Duplicate/Div for t, 9 of Horner, Mul/Muls/Exp/Mul/Muls/Adds, then
// Muls/Mins/Maxs/Mul for the sign); half adds a Cast in and out. Temporary space: 12 bytes per
// element for float, 16 for half. Host side: GetErfMaxMinTmpSize (tiling/math/erf_tiling.h).
#pragma once

#include <cstdint>

#include "lib/math/math_common.h"

namespace npusim::ascendc {

struct ErfImpl {
  static constexpr const char* kName = "Erf";
  static constexpr const char* kTiling = "GetErfMaxMinTmpSize";
  static constexpr std::uint32_t kFloats = 3;

  template <class T>
  static constexpr std::uint32_t per_elem() {
    static_assert(kIsHalfOrFloat<T>, "Erf supports half and float");
    return float_tmp_per_elem<T>(kFloats);
  }

  /// r = erf(x) for n floats; a, t, p are scratch (r may be x).
  static void compute(const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x,
                      const AscendC::LocalTensor<float>& a, const AscendC::LocalTensor<float>& t,
                      const AscendC::LocalTensor<float>& p, std::int32_t n) {
    constexpr float kCoef[5] = {0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f,
                                1.061405429f};
    AscendC::Abs(a, x, n);
    AscendC::Muls(t, a, 0.3275911f, n);
    AscendC::Adds(t, t, 1.0f, n);
    AscendC::Duplicate(p, 1.0f, n);
    AscendC::Div(t, p, t, n);
    AscendC::Muls(p, t, kCoef[4], n);
    for (int k = 3; k >= 0; --k) {
      AscendC::Adds(p, p, kCoef[k], n);
      AscendC::Mul(p, p, t, n);
    }
    AscendC::Mul(a, a, a, n);
    AscendC::Muls(a, a, -1.0f, n);
    AscendC::Exp(a, a, n);
    AscendC::Mul(p, p, a, n);
    AscendC::Muls(p, p, -1.0f, n);
    AscendC::Adds(p, p, 1.0f, n);  // erf(|x|)
    AscendC::Muls(a, x, 1e30f, n);
    AscendC::Mins(a, a, 1.0f, n);
    AscendC::Maxs(a, a, -1.0f, n);  // the sign of x (a fraction of it below 1e-30)
    AscendC::Mul(r, p, a, n);
  }

  template <class T>
  static void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const HighLevelTmp& tmp, std::uint32_t n) {
    float_pass(dst, src, tmp, n,
               [&](const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x) {
                 compute(r, x, float_scratch<T>(tmp, n, 0), float_scratch<T>(tmp, n, 1),
                         float_scratch<T>(tmp, n, 2), static_cast<std::int32_t>(n));
               });
  }
};

}  // namespace npusim::ascendc

namespace AscendC {

NPUSIM_MATH_UNARY_API(Erf, ErfImpl)

}  // namespace AscendC
