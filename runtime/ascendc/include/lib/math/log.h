// SPDX-License-Identifier: Apache-2.0
// The Log high-level APIs of the Ascend C twin (half and float): Log (base e), Log2, Log10.
// Timing, on the vector pipe: float: Ln (Log), Ln and Muls by 1/ln(base) (Log2, Log10), straight
// into dst, no temporary space; half: a Cast to float, the same, a Cast back, per pass over a
// temporary buffer of 4 bytes per element (npusim/ascendc/high_level_tmp.h).
// Host side: GetLogMaxMinTmpSize, GetLog2MaxMinTmpSize, GetLog10MaxMinTmpSize
// (tiling/math/log_tiling.h).
#pragma once

#include <cstdint>

#include "lib/math/math_common.h"

namespace npusim::ascendc {

struct LogNames {
  static constexpr const char* kNames[3] = {"Log", "Log2", "Log10"};
  static constexpr const char* kTilings[3] = {"GetLogMaxMinTmpSize", "GetLog2MaxMinTmpSize",
                                              "GetLog10MaxMinTmpSize"};
};

/// kBase 0: e, 2, 10.
template <int kBase>
struct LogImpl {
  static constexpr const char* kName = LogNames::kNames[kBase == 0 ? 0 : kBase == 2 ? 1 : 2];
  static constexpr const char* kTiling = LogNames::kTilings[kBase == 0 ? 0 : kBase == 2 ? 1 : 2];

  template <class T>
  static constexpr std::uint32_t per_elem() {
    static_assert(kIsHalfOrFloat<T>, "Log, Log2 and Log10 support half and float");
    return float_tmp_per_elem<T>(0);
  }

  template <class T>
  static void pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const HighLevelTmp& tmp, std::uint32_t n) {
    const auto c = static_cast<std::int32_t>(n);
    float_pass(dst, src, tmp, n,
               [&](const AscendC::LocalTensor<float>& r, const AscendC::LocalTensor<float>& x) {
                 AscendC::Ln(r, x, c);
                 if constexpr (kBase == 2) AscendC::Muls(r, r, 1.4426950408889634f, c);
                 if constexpr (kBase == 10) AscendC::Muls(r, r, 0.4342944819032518f, c);
               });
  }
};

}  // namespace npusim::ascendc

namespace AscendC {

NPUSIM_MATH_UNARY_API(Log, LogImpl<0>)
NPUSIM_MATH_UNARY_API(Log2, LogImpl<2>)
NPUSIM_MATH_UNARY_API(Log10, LogImpl<10>)

}  // namespace AscendC
