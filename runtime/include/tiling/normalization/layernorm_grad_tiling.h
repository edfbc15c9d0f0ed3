/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of LayerNormGrad and LayerNormGradBeta
 * (lib/normalization/layernorm_grad.h), srcShape {B, S, H} or {B, S, H, original H}:
 *   LayerNormGrad: three floats per element of a pass's rows, four floats per row and 128 bytes
 *     (the row values' alignment): maxValue all rows, minValue one row.
 *   LayerNormGradBeta: one float per element of a pass's rows and one row: maxValue all rows,
 *     minValue one row.
 * The ND tiling functions fill the shape and the pass split for stackBufferSize bytes.
 */
#ifndef NPUSIM_TILING_NORMALIZATION_LAYERNORM_GRAD_TILING_H_
#define NPUSIM_TILING_NORMALIZATION_LAYERNORM_GRAD_TILING_H_

#include <cstdint>
#include <cstring>

#include "tiling/normalization/norm_tiling_data.h"
#include "tiling/tensor_shape.h"

namespace npusim::tiling::norm {

inline uint32_t grad_row_bytes(const NormShape& n) { return 3 * n.pitch * 4 + 16; }
inline constexpr uint32_t kGradFixedBytes = 128;
inline uint32_t grad_beta_row_bytes(const NormShape& n) { return n.pitch * 4; }

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline void fill_grad_tiling(const NormShape& n, uint32_t stack_bytes, ::LayerNormGradTiling& t) {
  t = ::LayerNormGradTiling{};
  t.stackBufferSize = stack_bytes;
  t.bLength = n.b;
  t.sLength = n.s;
  t.hLength = n.pitch;
  t.originalHLength = n.valid;
  const uint32_t per = rows_fitting(stack_bytes, grad_row_bytes(n), kGradFixedBytes, n.rows);
  t.oneCalSize = per * n.pitch;
  t.nohCalSize = per;
  t.loopNum = per == 0 ? 0 : n.rows / per;
  t.nohTailSize = per == 0 ? 0 : n.rows % per;
  t.tailSize = t.nohTailSize * n.pitch;
  t.tmpTensorBSHSize = t.oneCalSize;
  t.x1TensorPos = t.oneCalSize;
  t.x1TensorSize = t.oneCalSize;
  t.x2TensorPos = 2 * t.oneCalSize;
  t.x2TensorSize = t.oneCalSize;
  const float inv = n.valid == 0 ? 0.0f : 1.0f / static_cast<float>(n.valid);
  t.lastDimValueBack = float_bits(inv);
  t.lastDimValueBackMulTwo = float_bits(2.0f * inv);
}

inline void fill_grad_beta_tiling(const NormShape& n, uint32_t stack_bytes,
                                  ::LayerNormGradBetaTiling& t) {
  t = ::LayerNormGradBetaTiling{};
  t.stackBufferSize = stack_bytes;
  t.bLength = n.b;
  t.sLength = n.s;
  t.hLength = n.pitch;
  t.originalHLength = n.valid;
  t.bshLength = n.rows * n.pitch;
  t.bsLength = n.rows;
  const uint32_t row = grad_beta_row_bytes(n);
  const uint32_t per = rows_fitting(stack_bytes, row, row, n.rows);
  t.oneCalSize = per * n.pitch;
  t.numberOfTmpBuf = 2;
  t.loopRound = per == 0 ? 0 : n.rows / per;
  t.bsTailSize = per == 0 ? 0 : n.rows % per;
  t.inputTailSize = t.bsTailSize * n.pitch;
  t.inputTailPos = t.loopRound * t.oneCalSize;
  t.bshCurLength = t.oneCalSize;
  t.bsCurLength = per;
  t.betaTempTensorPos = t.oneCalSize;
}

}  // namespace npusim::tiling::norm

namespace AscendC {

inline void GetLayerNormGradMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                          const bool /*isReuseSource*/, uint32_t& maxValue,
                                          uint32_t& minValue) {
  using namespace npusim::tiling::norm;
  const NormShape n = bsh_shape(srcShape);
  maxValue = align32(uint64_t{grad_row_bytes(n)} * n.rows + kGradFixedBytes);
  minValue = n.rows == 0 ? 0 : align32(grad_row_bytes(n) + kGradFixedBytes);
}

inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t /*typeSize*/, const bool /*isReuseSource*/,
                                         ::LayerNormGradTiling& tiling) {
  npusim::tiling::norm::fill_grad_tiling(npusim::tiling::norm::bsh_shape(srcShape), stackBufferSize,
                                         tiling);
}

inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling) {
  ::LayerNormGradTiling t;
  GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
  npusim::tiling::norm::assign(tiling, t);
}

inline void GetLayerNormGradBetaMaxMinTmpSize(const TensorShape& srcShape,
                                              const uint32_t /*typeSize*/,
                                              const bool /*isReuseSource*/, uint32_t& maxValue,
                                              uint32_t& minValue) {
  using namespace npusim::tiling::norm;
  const NormShape n = bsh_shape(srcShape);
  maxValue = align32(uint64_t{grad_beta_row_bytes(n)} * (n.rows + 1));
  minValue = n.rows == 0 ? 0 : align32(2 * grad_beta_row_bytes(n));
}

inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape,
                                             const uint32_t stackBufferSize,
                                             const uint32_t /*typeSize*/,
                                             const bool /*isReuseSource*/,
                                             ::LayerNormGradBetaTiling& tiling) {
  npusim::tiling::norm::fill_grad_beta_tiling(npusim::tiling::norm::bsh_shape(srcShape),
                                              stackBufferSize, tiling);
}

inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape,
                                             const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
  ::LayerNormGradBetaTiling t;
  GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
  npusim::tiling::norm::assign(tiling, t);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_NORMALIZATION_LAYERNORM_GRAD_TILING_H_
