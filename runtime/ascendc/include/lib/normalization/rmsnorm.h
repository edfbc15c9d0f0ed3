// SPDX-License-Identifier: Apache-2.0
// The RmsNorm high-level API of the Ascend C twin: for each of the B*S rows of H elements (the
// first originalHLength valid) of src,
//   dst = src / sqrt(sum(src^2) / n + eps) * gamma
// in passes of the tiling's mainBsLength rows (tiling/normalization/rmsnorm_tiling.h:
// GetRmsNormTilingInfo splits the rows by the temporary space), each pass on the vector pipe:
// Mul + Muls + Sum (the mean square), Adds + Sqrt on the row values, Broadcast + Div, Broadcast
// + Mul (gamma). Temporary space: mainBshLength + mainBsLengthAlign floats (a row block and the
// row values); less fails naming RmsNorm. The twin supports float operands; isBasicBlock is
// accepted and changes nothing.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/norm_common.h"
#include "npusim/ascendc/high_level_tmp.h"

namespace npusim::ascendc::norm {

inline std::uint32_t rmsnorm_tmp_bytes(const ::RmsNormTiling& t) {
  return (t.mainBshLength + align8(t.mainBsLengthAlign)) * 4;
}

inline void rmsnorm_pass(const LocalTensor<float>& y, const LocalTensor<float>& x,
                         const LocalTensor<float>& gamma, const LocalTensor<float>& block,
                         const LocalTensor<float>& values, float eps, float inv_n, const Rows& r) {
  const std::int32_t c = r.count();
  const auto rows = static_cast<std::int32_t>(r.rows);
  AscendC::Mul(block, x, x, c);
  row_mean(values, block, block, r, inv_n);
  AscendC::Adds(values, values, eps, rows);
  AscendC::Sqrt(values, values, rows);
  spread_rows(block, values, r);
  AscendC::Div(y, x, block, c);
  spread_cols(block, gamma, r);
  AscendC::Mul(y, y, block, c);
}

inline void rmsnorm(const LocalTensor<float>& y, const LocalTensor<float>& x,
                    const LocalTensor<float>& gamma, const HighLevelTmp& tmp, float eps,
                    const ::RmsNormTiling& t) {
  const std::uint32_t valid = t.originalHLength != 0 ? t.originalHLength : t.hLength;
  const Rows all{t.bLength * t.sLength, t.hLength, valid};
  check_rows("RmsNorm", all);
  const std::uint32_t per = t.mainBsLength;
  if (per == 0 || t.mainBshLength < per * all.pitch) {
    fail("RmsNorm",
         "the tiling's pass of %u rows (%u elements) does not hold a row of %u "
         "(GetRmsNormTilingInfo)",
         per, t.mainBshLength, all.pitch);
  }
  if (tmp.bytes() < rmsnorm_tmp_bytes(t)) {
    fail("RmsNorm",
         "temporary space of %u bytes is below the %u bytes of the tiling's pass "
         "(GetRmsNormTilingInfo was given more)",
         tmp.bytes(), rmsnorm_tmp_bytes(t));
  }
  const float inv_n =
      t.reciprocalOfHLength != 0.0f ? t.reciprocalOfHLength : 1.0f / static_cast<float>(valid);
  for (std::uint32_t r0 = 0; r0 < all.rows; r0 += per) {
    const Rows r{all.rows - r0 < per ? all.rows - r0 : per, all.pitch, all.n};
    const std::uint32_t at = r0 * all.pitch;
    rmsnorm_pass(y[at], x[at], gamma, tmp.as<float>(), tmp.as<float>(t.mainBshLength), eps, inv_n,
                 r);
  }
}

}  // namespace npusim::ascendc::norm

namespace AscendC {

template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<T>& gammaLocal,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T epsilon,
                    const RmsNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's RmsNorm supports float");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::norm::rmsnorm(dstLocal, srcLocal, gammaLocal, tmp, epsilon, tiling);
}

template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<T>& gammaLocal, const T epsilon,
                    const RmsNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's RmsNorm supports float");
  const std::uint32_t need = npusim::ascendc::norm::rmsnorm_tmp_bytes(tiling);
  const npusim::ascendc::HighLevelTmp tmp("RmsNorm", "GetRmsNormTilingInfo", need, need);
  npusim::ascendc::norm::rmsnorm(dstLocal, srcLocal, gammaLocal, tmp, epsilon, tiling);
}

}  // namespace AscendC
