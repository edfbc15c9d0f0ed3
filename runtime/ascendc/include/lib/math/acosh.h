// SPDX-License-Identifier: Apache-2.0
// The Acosh high-level API of the Ascend C twin (half and float): the inverse hyperbolic cosine,
// computed without overflow as acosh(x) = ln(x) + ln(1 + sqrt((1 - 1/x)(1 + 1/x))); x < 1 gives
// NaN (a negative square root or logarithm), x = +inf gives +inf.
// Timing: per pass over the temporary buffer (npusim/ascendc/high_level_tmp.h), 11 vector-pipe
// instructions (Duplicate, Div, Adds, Muls, Adds, Mul, Sqrt, Adds, Ln, Ln, Add); half adds a Cast
// in and out. Temporary space: 8 bytes per element for float, 12 for half.
// Host side: GetAcoshMaxMinTmpSize (tiling/math/acosh_tiling.h).
#pragma once

#include <cstdint>

#include "lib/math/math_common.h"

namespace npusim::ascendc {

struct AcoshImpl {
  static constexpr const char* kName = "Acosh";
  static constexpr const char* kTiling = "GetAcoshMaxMinTmpSize";

  template <class T>
  static constexpr std::uint32_t per_elem() {
    static_assert(kIsHalfOrFloat<T>, "Acosh supports half and float");
    return float_tmp_per_elem<T>(2);
  }

  template <class T>
  static void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const HighLevelTmp& tmp, std::uint32_t n) {
    const AscendC::LocalTensor<float> a = float_scratch<T>(tmp, n, 0);
    const AscendC::LocalTensor<float> b = float_scratch<T>(tmp, n, 1);
    const auto c = static_cast<std::int32_t>(n);
    float_pass(dst, src, tmp, n,
               [&](const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x) {
                 AscendC::Duplicate(a, 1.0f, c);
                 AscendC::Div(a, a, x, c);      // 1/x
                 AscendC::Adds(b, a, 1.0f, c);  // 1 + 1/x
                 AscendC::Muls(a, a, -1.0f, c);
                 AscendC::Adds(a, a, 1.0f, c);  // 1 - 1/x
                 AscendC::Mul(a, a, b, c);
                 AscendC::Sqrt(a, a, c);
                 AscendC::Adds(a, a, 1.0f, c);
                 AscendC::Ln(a, a, c);
                 AscendC::Ln(b, x, c);
                 AscendC::Add(r, a, b, c);
               });
  }
};

}  // namespace npusim::ascendc

namespace AscendC {

NPUSIM_MATH_UNARY_API(Acosh, AcoshImpl)

}  // namespace AscendC
