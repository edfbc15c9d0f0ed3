// SPDX-License-Identifier: Apache-2.0
// The DeepNorm high-level API of the Ascend C twin: LayerNorm of alpha * x + gx. For each of the
// B*S rows of H elements (the first originalHLength valid), with x1 = alpha * src + gx,
//   mean = sum(x1) / n,  rstd output = variance = sum((x1 - mean)^2) / n,
//   dst = (x1 - mean) / sqrt(variance + eps) * gamma + beta
// (CANN names the variance output rstdLocal). Timing: per pass of rows, on the vector pipe,
// Muls + Add (x1), then LayerNorm's instructions (lib/normalization/layernorm.h). Temporary
// space: two floats per element of a pass's rows (GetDeepNormMaxMinTmpSize). The twin supports
// float operands; isReuseSrc and isBasicBlock are accepted and change nothing.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/norm_common.h"
#include "npusim/ascendc/high_level_tmp.h"

namespace npusim::ascendc::norm {

inline constexpr const char* kDeepNormTiling = "GetDeepNormMaxMinTmpSize";

struct DeepNormArgs {
  LocalTensor<float> y, mean, variance, x, gx, beta, gamma;
  float alpha = 0, eps = 0;
};

inline Rows deepnorm_rows(const ::DeepNormTiling& t) {
  const std::uint32_t valid = t.originalHLength != 0 ? t.originalHLength : t.hLength;
  return Rows{t.bLength * t.sLength, t.hLength, valid};
}

inline void deepnorm(const DeepNormArgs& a, const HighLevelTmp& tmp, const ::DeepNormTiling& t) {
  const Rows all = deepnorm_rows(t);
  check_rows("DeepNorm", all);
  const std::uint32_t per =
      rows_per_pass("DeepNorm", kDeepNormTiling, tmp.bytes(), two_rows_bytes(all), 0, all.rows);
  const LocalTensor<float> x1 = tmp.as<float>();
  for (std::uint32_t r0 = 0; r0 < all.rows; r0 += per) {
    const Rows r{all.rows - r0 < per ? all.rows - r0 : per, all.pitch, all.n};
    const std::uint32_t at = r0 * all.pitch;
    AscendC::Muls(x1, a.x[at], a.alpha, r.count());
    AscendC::Add(x1, x1, a.gx[at], r.count());
    NormRowsArgs n{a.y[at], a.mean[r0], a.variance[r0], x1,   x1,  tmp.as<float>(per * all.pitch),
                   a.gamma, a.beta,     a.eps,          true, true};
    normalize_rows(n, r);
  }
}

}  // namespace npusim::ascendc::norm

namespace AscendC {

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                     const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                     const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal,
                     const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T alpha,
                     const T epsilon, const DeepNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's DeepNorm supports float");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::norm::deepnorm(
      {dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, alpha, epsilon},
      tmp, tiling);
}

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                     const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                     const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
                     const DeepNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's DeepNorm supports float");
  using namespace npusim::ascendc::norm;
  const Rows all = deepnorm_rows(tiling);
  check_rows("DeepNorm", all);
  const npusim::ascendc::HighLevelTmp tmp = framework_rows_tmp("DeepNorm", kDeepNormTiling, all);
  deepnorm(
      {dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, alpha, epsilon},
      tmp, tiling);
}

}  // namespace AscendC
