// SPDX-License-Identifier: Apache-2.0
// LayerNorm's backward high-level APIs of the Ascend C twin, on [B, S, H] data (rows of H
// elements, the first originalHLength = n valid):
//
//   LayerNormGrad: with d = x - mean, rstd = 1 / sqrt(variance + eps), g = dy * gamma,
//     resForGamma = d * rstd
//     pd_var  = -0.5 * rstd^3 * sum(g * d)
//     pd_mean = -rstd * sum(g) + pd_var * (-2 / n) * sum(d)
//     outputPdX = g * rstd + pd_var * (2 / n) * d + pd_mean / n
//   LayerNormGradBeta: over all B*S rows,
//     outputPdGamma = sum(dy * resForGamma),  outputPdBeta = sum(dy)
//
// Timing (vector pipe): LayerNormGrad per pass of rows: Adds + Sqrt + Reciprocal (rstd), five
// Broadcast + Sub/Mul/Add, three Sum, a dozen Mul/Muls/Add on the row values; LayerNormGradBeta:
// one column ReduceSum of dy, then per pass Mul + column ReduceSum (+ Add after the first).
// Temporary space: LayerNormGrad three floats per element of a pass's rows (+ four row values),
// LayerNormGradBeta one float per element (+ one row): GetLayerNormGradMaxMinTmpSize /
// GetLayerNormGradBetaMaxMinTmpSize (tiling/normalization/layernorm_grad_tiling.h).
// The twin supports float operands; isReuseSource and the ND shape info are accepted.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/norm_common.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/shape_info.h"

namespace AscendC {

struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC

namespace npusim::ascendc::norm {

inline constexpr const char* kGradTiling = "GetLayerNormGradMaxMinTmpSize";
inline constexpr const char* kGradBetaTiling = "GetLayerNormGradBetaMaxMinTmpSize";

template <class Tiling>
Rows grad_rows(const Tiling& t) {
  const std::uint32_t valid = t.originalHLength != 0 ? t.originalHLength : t.hLength;
  return Rows{t.bLength * t.sLength, t.hLength, valid};
}

/// LayerNormGrad's temporary space: three row blocks per row, four row values (32-byte aligned).
inline std::uint32_t grad_row_bytes(const Rows& r) { return 3 * r.pitch * 4 + 4 * 4; }
inline constexpr std::uint32_t kGradFixedBytes = 4 * 32;

struct GradArgs {
  LocalTensor<float> pd_x, res, dy, x, variance, mean, gamma;
  float eps = 0;
};

/// The four row-value vectors (rstd and three sums) of a pass of `per` rows, after the blocks.
struct GradValues {
  LocalTensor<float> rstd, s1, s2, s3;
};

inline void grad_row_values(const GradValues& v, const Rows& r) {
  const auto rows = static_cast<std::int32_t>(r.rows);
  const float inv_n = 1.0f / static_cast<float>(r.n);
  // pd_var = -0.5 * rstd^3 * sum(g * d), in s1
  AscendC::Mul(v.s1, v.s1, v.rstd, rows);
  AscendC::Mul(v.s1, v.s1, v.rstd, rows);
  AscendC::Mul(v.s1, v.s1, v.rstd, rows);
  AscendC::Muls(v.s1, v.s1, -0.5f, rows);
  // pd_mean = -rstd * sum(g) + pd_var * (-2 / n) * sum(d), in s2
  AscendC::Mul(v.s2, v.s2, v.rstd, rows);
  AscendC::Muls(v.s2, v.s2, -1.0f, rows);
  AscendC::Mul(v.s3, v.s3, v.s1, rows);
  AscendC::Muls(v.s3, v.s3, -2.0f * inv_n, rows);
  AscendC::Add(v.s2, v.s2, v.s3, rows);
  // the per-row factors of pd_x: pd_var * 2 / n and pd_mean / n
  AscendC::Muls(v.s1, v.s1, 2.0f * inv_n, rows);
  AscendC::Muls(v.s2, v.s2, inv_n, rows);
}

inline void grad_pass(const GradArgs& a, const LocalTensor<float>& d, const LocalTensor<float>& g,
                      const LocalTensor<float>& w, const GradValues& v, const Rows& r) {
  const std::int32_t c = r.count();
  const auto rows = static_cast<std::int32_t>(r.rows);
  AscendC::Adds(v.rstd, a.variance, a.eps, rows);
  AscendC::Sqrt(v.rstd, v.rstd, rows);
  AscendC::Reciprocal(v.rstd, v.rstd, rows);
  spread_rows(w, a.mean, r);
  AscendC::Sub(d, a.x, w, c);
  spread_rows(w, v.rstd, r);
  AscendC::Mul(a.res, d, w, c);
  spread_cols(w, a.gamma, r);
  AscendC::Mul(g, a.dy, w, c);
  AscendC::Mul(w, g, d, c);
  row_sum(v.s1, w, r);
  row_sum(v.s2, g, r);
  row_sum(v.s3, d, r);
  grad_row_values(v, r);
  spread_rows(w, v.rstd, r);
  AscendC::Mul(g, g, w, c);
  spread_rows(w, v.s1, r);
  AscendC::Mul(w, w, d, c);
  AscendC::Add(g, g, w, c);
  spread_rows(w, v.s2, r);
  AscendC::Add(a.pd_x, g, w, c);
}

inline void layernorm_grad(const GradArgs& a, const HighLevelTmp& tmp,
                           const ::LayerNormGradTiling& t) {
  const Rows all = grad_rows(t);
  check_rows("LayerNormGrad", all);
  const std::uint32_t per = rows_per_pass("LayerNormGrad", kGradTiling, tmp.bytes(),
                                          grad_row_bytes(all), kGradFixedBytes, all.rows);
  const std::uint32_t block = per * all.pitch;
  const std::uint32_t vals = align8(per);
  const GradValues v{tmp.as<float>(3 * block), tmp.as<float>(3 * block + vals),
                     tmp.as<float>(3 * block + 2 * vals), tmp.as<float>(3 * block + 3 * vals)};
  for (std::uint32_t r0 = 0; r0 < all.rows; r0 += per) {
    const Rows r{all.rows - r0 < per ? all.rows - r0 : per, all.pitch, all.n};
    const std::uint32_t at = r0 * all.pitch;
    const GradArgs part{a.pd_x[at],     a.res[at],  a.dy[at], a.x[at],
                        a.variance[r0], a.mean[r0], a.gamma,  a.eps};
    grad_pass(part, tmp.as<float>(), tmp.as<float>(block), tmp.as<float>(2 * block), v, r);
  }
}

/// Column sums of rows x pitch floats (the twin's ReduceSum, pattern RA).
inline void column_sum(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                       const Rows& r) {
  const std::uint32_t shape[2] = {r.rows, r.pitch};
  AscendC::ReduceSum<float, AscendC::Pattern::Reduce::RA>(dst, src, shape, true);
}

inline void layernorm_grad_beta(const LocalTensor<float>& pd_gamma,
                                const LocalTensor<float>& pd_beta, const LocalTensor<float>& res,
                                const LocalTensor<float>& dy, const HighLevelTmp& tmp,
                                const ::LayerNormGradBetaTiling& t) {
  const Rows all = grad_rows(t);
  check_rows("LayerNormGradBeta", all);
  column_sum(pd_beta, dy, all);
  const std::uint32_t row_bytes = all.pitch * 4;
  const std::uint32_t per = rows_per_pass("LayerNormGradBeta", kGradBetaTiling, tmp.bytes(),
                                          row_bytes, row_bytes, all.rows);
  const LocalTensor<float> prod = tmp.as<float>();
  const LocalTensor<float> part = tmp.as<float>(per * all.pitch);
  for (std::uint32_t r0 = 0; r0 < all.rows; r0 += per) {
    const Rows r{all.rows - r0 < per ? all.rows - r0 : per, all.pitch, all.n};
    const std::uint32_t at = r0 * all.pitch;
    AscendC::Mul(prod, dy[at], res[at], r.count());
    column_sum(r0 == 0 ? pd_gamma : part, prod, r);
    if (r0 != 0) AscendC::Add(pd_gamma, pd_gamma, part, static_cast<std::int32_t>(all.pitch));
  }
}

}  // namespace npusim::ascendc::norm

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                          const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                          const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma,
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer, T epsilon,
                          const LayerNormGradTiling& tiling,
                          const LayerNormGradShapeInfo& /*shapeInfo*/ = {}) {
  static_assert(std::is_same_v<T, float>, "the twin's LayerNormGrad supports float");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::norm::layernorm_grad(
      {outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, epsilon}, tmp,
      tiling);
}

template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                          const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                          const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, T epsilon,
                          const LayerNormGradTiling& tiling,
                          const LayerNormGradShapeInfo& /*shapeInfo*/ = {}) {
  static_assert(std::is_same_v<T, float>, "the twin's LayerNormGrad supports float");
  using namespace npusim::ascendc::norm;
  const Rows all = grad_rows(tiling);
  check_rows("LayerNormGrad", all);
  const npusim::ascendc::HighLevelTmp tmp("LayerNormGrad", kGradTiling,
                                          grad_row_bytes(all) * all.rows + kGradFixedBytes,
                                          grad_row_bytes(all) + kGradFixedBytes);
  layernorm_grad(
      {outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, epsilon}, tmp,
      tiling);
}

template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma,
                              const LocalTensor<T>& outputPdBeta, const LocalTensor<T>& resForGamma,
                              const LocalTensor<T>& inputDy,
                              const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                              const LayerNormGradBetaTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's LayerNormGradBeta supports float");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::norm::layernorm_grad_beta(outputPdGamma, outputPdBeta, resForGamma, inputDy, tmp,
                                             tiling);
}

template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma,
                              const LocalTensor<T>& outputPdBeta, const LocalTensor<T>& resForGamma,
                              const LocalTensor<T>& inputDy,
                              const LayerNormGradBetaTiling& tiling) {
  static_assert(std::is_same_v<T, float>, "the twin's LayerNormGradBeta supports float");
  using namespace npusim::ascendc::norm;
  const Rows all = grad_rows(tiling);
  check_rows("LayerNormGradBeta", all);
  const std::uint32_t row_bytes = all.pitch * 4;
  const npusim::ascendc::HighLevelTmp tmp("LayerNormGradBeta", kGradBetaTiling,
                                          row_bytes * (all.rows + 1), 2 * row_bytes);
  layernorm_grad_beta(outputPdGamma, outputPdBeta, resForGamma, inputDy, tmp, tiling);
}

}  // namespace AscendC
