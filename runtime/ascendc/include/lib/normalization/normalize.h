// SPDX-License-Identifier: Apache-2.0
// The Normalize high-level API of the Ascend C twin: LayerNorm's second half, from a given mean
// and variance. For each of the A rows of inputX [A, rLengthWithPadding] (the first rLength
// valid):
//   outputRstd = 1 / sqrt(inputVariance + eps),
//   output = (x - inputMean) * outputRstd * gamma + beta   (isNoGamma / isNoBeta drop them)
// Timing: per pass of rows, on the vector pipe, Adds + Sqrt + Reciprocal on the A values, then
// Broadcast + Sub, Broadcast + Mul, and Broadcast + Mul / Add for gamma and beta.
// Temporary space: two floats per element of a pass's rows (GetNormalizeMaxMinTmpSize,
// tiling/normalization/normalize_tiling.h). The twin supports float operands (T = U = float),
// reducePattern AR and isOnlyOutput = false (compile-time errors otherwise).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/normalization/layernorm.h"
#include "lib/normalization/norm_common.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "kernel_tiling/ascendc_types.h"

namespace AscendC {

struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  std::int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};
inline constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};

struct NormalizePara {
  std::uint32_t aLength;
  std::uint32_t rLength;
  std::uint32_t rLengthWithPadding;
};

}  // namespace AscendC

namespace npusim::ascendc::norm {

inline constexpr const char* kNormalizeTiling = "GetNormalizeMaxMinTmpSize";

struct NormalizeArgs {
  LocalTensor<float> y, rstd, mean, variance, x, gamma, beta;
  float eps = 0;
};

template <bool kGamma, bool kBeta>
void normalize_pass(const NormalizeArgs& a, const LocalTensor<float>& diff,
                    const LocalTensor<float>& scratch, const Rows& r) {
  const std::int32_t c = r.count();
  const auto rows = static_cast<std::int32_t>(r.rows);
  AscendC::Adds(a.rstd, a.variance, a.eps, rows);
  AscendC::Sqrt(a.rstd, a.rstd, rows);
  AscendC::Reciprocal(a.rstd, a.rstd, rows);
  spread_rows(scratch, a.mean, r);
  AscendC::Sub(diff, a.x, scratch, c);
  spread_rows(scratch, a.rstd, r);
  AscendC::Mul(a.y, diff, scratch, c);
  if constexpr (kGamma) {
    spread_cols(scratch, a.gamma, r);
    AscendC::Mul(a.y, a.y, scratch, c);
  }
  if constexpr (kBeta) {
    spread_cols(scratch, a.beta, r);
    AscendC::Add(a.y, a.y, scratch, c);
  }
}

template <bool kGamma, bool kBeta>
void normalize(const NormalizeArgs& a, const HighLevelTmp& tmp, const AscendC::NormalizePara& p) {
  const Rows all{p.aLength, p.rLengthWithPadding, p.rLength};
  check_rows("Normalize", all);
  const std::uint32_t per =
      rows_per_pass("Normalize", kNormalizeTiling, tmp.bytes(), two_rows_bytes(all), 0, all.rows);
  for (std::uint32_t r0 = 0; r0 < all.rows; r0 += per) {
    const Rows r{all.rows - r0 < per ? all.rows - r0 : per, all.pitch, all.n};
    const std::uint32_t at = r0 * all.pitch;
    const NormalizeArgs part{a.y[at], a.rstd[r0], a.mean[r0], a.variance[r0],
                             a.x[at], a.gamma,    a.beta,     a.eps};
    normalize_pass<kGamma, kBeta>(part, tmp.as<float>(), tmp.as<float>(per * all.pitch), r);
  }
}

}  // namespace npusim::ascendc::norm

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                      const float epsilon, const NormalizePara& para) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "the twin's Normalize supports float");
  static_assert(config.reducePattern == ReducePattern::AR && !config.isOnlyOutput,
                "the twin's Normalize reduces the inner axis (AR) and outputs rstd");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::norm::normalize<!config.isNoGamma, !config.isNoBeta>(
      {output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, epsilon}, tmp, para);
}

template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "the twin's Normalize supports float");
  static_assert(config.reducePattern == ReducePattern::AR && !config.isOnlyOutput,
                "the twin's Normalize reduces the inner axis (AR) and outputs rstd");
  using namespace npusim::ascendc::norm;
  const Rows all{para.aLength, para.rLengthWithPadding, para.rLength};
  check_rows("Normalize", all);
  const npusim::ascendc::HighLevelTmp tmp = framework_rows_tmp("Normalize", kNormalizeTiling, all);
  normalize<!config.isNoGamma, !config.isNoBeta>(
      {output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, epsilon}, tmp, para);
}

}  // namespace AscendC
