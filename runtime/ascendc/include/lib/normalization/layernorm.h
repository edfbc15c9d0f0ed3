// SPDX-License-Identifier: Apache-2.0
// The LayerNorm high-level API of the Ascend C twin, in its two forms:
//
//   [B, S, H] form (LayerNormTiling): for each of the B*S rows of H elements (the first
//     originalHLength valid),
//       mean = sum(x) / n,  variance = sum((x - mean)^2) / n,
//       output = (x - mean) / sqrt(variance + eps) * gamma + beta
//     outputs output [B, S, H], outputMean and outputVariance [B, S]. output may be inputX.
//   [A, R] form (LayerNormPara, LayerNormSeparateTiling, LayerNormConfig): for each of the A rows
//     of rLengthWithPadding elements (the first rLength valid), mean as above,
//       rstd = 1 / sqrt(variance + eps),  output = (x - mean) * rstd * gamma + beta
//     outputs output [A, R], outputMean and outputRstd [A]; isNoGamma / isNoBeta drop the
//     factor / the term.
//
// Timing: per pass of rows, on the vector pipe, Muls + Sum (mean), Broadcast + Sub, Mul + Muls +
// Sum (variance), then Broadcast, Adds, Sqrt, Div (the [A, R] form: Adds, Sqrt, Reciprocal on
// the A values, Broadcast, Mul), and Broadcast + Mul / Add for gamma and beta.
// Temporary space: two floats per element of the rows of a pass (tiling/normalization/
// layernorm_tiling.h: GetLayerNormMaxMinTmpSize; at least one row, at most all of them).
// The twin supports float operands (T = U = float), isOnlyOutput = false and isOutputRstd = true
// (compile-time errors otherwise); the [B, S, H] form's isReuseSource is accepted and changes
// nothing.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/norm_common.h"
#include "npusim/ascendc/high_level_tmp.h"

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
inline constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

struct LayerNormPara {
  std::uint32_t aLength;
  std::uint32_t rLength;
  std::uint32_t rLengthWithPadding;
};

}  // namespace AscendC

namespace npusim::ascendc::norm {

inline constexpr const char* kLayerNormTiling = "GetLayerNormMaxMinTmpSize";

/// Bytes of temporary space per row: two float rows (the difference and a scratch row).
inline std::uint32_t two_rows_bytes(const Rows& r) { return 2 * r.pitch * 4; }

inline Rows bsh_rows(const ::LayerNormTiling& t) {
  const std::uint32_t valid = t.originalHLength != 0 ? t.originalHLength : t.hLength;
  return Rows{t.bLength * t.sLength, t.hLength, valid};
}

inline void layernorm_bsh(const LocalTensor<float>& y, const LocalTensor<float>& mean,
                          const LocalTensor<float>& variance, const LocalTensor<float>& x,
                          const LocalTensor<float>& gamma, const LocalTensor<float>& beta,
                          const HighLevelTmp& tmp, float eps, const ::LayerNormTiling& t) {
  const Rows all = bsh_rows(t);
  check_rows("LayerNorm", all);
  const std::uint32_t per =
      rows_per_pass("LayerNorm", kLayerNormTiling, tmp.bytes(), two_rows_bytes(all), 0, all.rows);
  for (std::uint32_t r0 = 0; r0 < all.rows; r0 += per) {
    const Rows r{all.rows - r0 < per ? all.rows - r0 : per, all.pitch, all.n};
    const std::uint32_t at = r0 * all.pitch;
    NormRowsArgs a{y[at],
                   mean[r0],
                   variance[r0],
                   x[at],
                   tmp.as<float>(),
                   tmp.as<float>(per * all.pitch),
                   gamma,
                   beta,
                   eps,
                   true,
                   true};
    normalize_rows(a, r);
  }
}

/// One pass of the [A, R] form on r rows.
template <bool kGamma, bool kBeta>
void layernorm_rstd_pass(const LocalTensor<float>& y, const LocalTensor<float>& mean,
                         const LocalTensor<float>& rstd, const LocalTensor<float>& x,
                         const LocalTensor<float>& gamma, const LocalTensor<float>& beta,
                         const LocalTensor<float>& diff, const LocalTensor<float>& scratch,
                         float eps, const Rows& r) {
  const float inv_n = 1.0f / static_cast<float>(r.n);
  const std::int32_t c = r.count();
  const auto rows = static_cast<std::int32_t>(r.rows);
  row_mean(mean, x, scratch, r, inv_n);
  spread_rows(scratch, mean, r);
  AscendC::Sub(diff, x, scratch, c);
  AscendC::Mul(scratch, diff, diff, c);
  row_mean(rstd, scratch, scratch, r, inv_n);
  AscendC::Adds(rstd, rstd, eps, rows);
  AscendC::Sqrt(rstd, rstd, rows);
  AscendC::Reciprocal(rstd, rstd, rows);
  spread_rows(scratch, rstd, r);
  AscendC::Mul(y, diff, scratch, c);
  if constexpr (kGamma) {
    spread_cols(scratch, gamma, r);
    AscendC::Mul(y, y, scratch, c);
  }
  if constexpr (kBeta) {
    spread_cols(scratch, beta, r);
    AscendC::Add(y, y, scratch, c);
  }
}

template <bool kGamma, bool kBeta>
void layernorm_rstd(const LocalTensor<float>& y, const LocalTensor<float>& mean,
                    const LocalTensor<float>& rstd, const LocalTensor<float>& x,
                    const LocalTensor<float>& gamma, const LocalTensor<float>& beta,
                    const HighLevelTmp& tmp, float eps, const AscendC::LayerNormPara& para) {
  const Rows all{para.aLength, para.rLengthWithPadding, para.rLength};
  check_rows("LayerNorm", all);
  const std::uint32_t per =
      rows_per_pass("LayerNorm", kLayerNormTiling, tmp.bytes(), two_rows_bytes(all), 0, all.rows);
  for (std::uint32_t r0 = 0; r0 < all.rows; r0 += per) {
    const Rows r{all.rows - r0 < per ? all.rows - r0 : per, all.pitch, all.n};
    const std::uint32_t at = r0 * all.pitch;
    layernorm_rstd_pass<kGamma, kBeta>(y[at], mean[r0], rstd[r0], x[at], gamma, beta,
                                       tmp.as<float>(), tmp.as<float>(per * all.pitch), eps, r);
  }
}

/// The framework form's temporary space: all rows at once if free, at least one row.
inline HighLevelTmp framework_rows_tmp(const char* api, const char* tiling, const Rows& all) {
  return HighLevelTmp(api, tiling, two_rows_bytes(all) * all.rows, two_rows_bytes(all));
}

}  // namespace npusim::ascendc::norm

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                      const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T epsilon,
                      const LayerNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's LayerNorm supports float");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::norm::layernorm_bsh(output, outputMean, outputVariance, inputX, gamma, beta, tmp,
                                       epsilon, tiling);
}

template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                      const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                      const LayerNormTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's LayerNorm supports float");
  using namespace npusim::ascendc::norm;
  const Rows all = bsh_rows(tiling);
  check_rows("LayerNorm", all);
  const npusim::ascendc::HighLevelTmp tmp = framework_rows_tmp("LayerNorm", kLayerNormTiling, all);
  layernorm_bsh(output, outputMean, outputVariance, inputX, gamma, beta, tmp, epsilon, tiling);
}

template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                      const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                      const LayerNormSeparateTiling& /*tiling*/) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "the twin's LayerNorm [A, R] form supports float");
  static_assert(config.isOutputRstd && !config.isOnlyOutput,
                "the twin's LayerNorm [A, R] form outputs mean and rstd");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::norm::layernorm_rstd<!config.isNoGamma, !config.isNoBeta>(
      output, outputMean, outputRstd, inputX, gamma, beta, tmp, epsilon, para);
}

template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                      const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                      const LayerNormPara& para, const LayerNormSeparateTiling& /*tiling*/) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "the twin's LayerNorm [A, R] form supports float");
  static_assert(config.isOutputRstd && !config.isOnlyOutput,
                "the twin's LayerNorm [A, R] form outputs mean and rstd");
  using namespace npusim::ascendc::norm;
  const Rows all{para.aLength, para.rLengthWithPadding, para.rLength};
  check_rows("LayerNorm", all);
  const npusim::ascendc::HighLevelTmp tmp = framework_rows_tmp("LayerNorm", kLayerNormTiling, all);
  layernorm_rstd<!config.isNoGamma, !config.isNoBeta>(output, outputMean, outputRstd, inputX, gamma,
                                                      beta, tmp, epsilon, para);
}

}  // namespace AscendC
