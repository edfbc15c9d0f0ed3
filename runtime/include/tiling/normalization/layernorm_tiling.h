/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of LayerNorm (lib/normalization/layernorm.h) and Normalize
 * (lib/normalization/normalize.h). Both take two floats of temporary space per element of the
 * rows a pass computes: at most all rows (maxValue), at least one row (minValue).
 *   [B, S, H] LayerNorm: srcShape {B, S, H} or {B, S, H, original H}
 *   [A, R] LayerNorm (isComputeRstd) and Normalize: srcShape {A, R}, rows padded to 8 floats.
 * GetLayerNormNDTilingInfo fills the tiling for a temporary buffer of stackBufferSize bytes:
 * the shape, and the pass split (rows per pass: meanVarRoundSize / bsCurLength / aCurLength,
 * elements per pass: oneTmpSize, loopRound full passes, a tail of the rest).
 */
#ifndef NPUSIM_TILING_NORMALIZATION_LAYERNORM_TILING_H_
#define NPUSIM_TILING_NORMALIZATION_LAYERNORM_TILING_H_

#include <cstdint>

#include "tiling/normalization/norm_tiling_data.h"
#include "tiling/tensor_shape.h"

namespace npusim::tiling::norm {

/// Two float rows per row of a pass.
inline uint32_t two_float_rows(const NormShape& n) { return 2 * n.pitch * 4; }

/// The pass plan both LayerNorm tilings share (same field names): two float temporaries in the
/// stack buffer, `per` rows each, whole rounds then a tail. Returns `per`.
template <class Tiling>
uint32_t fill_row_passes(const NormShape& n, uint32_t stack_bytes, Tiling& t) {
  t.inputXSize = n.rows * n.pitch;
  t.meanVarSize = n.rows;
  t.numberOfTmpBuf = 2;
  t.tmpBufSize = stack_bytes / 4;
  const uint32_t per = rows_fitting(stack_bytes, two_float_rows(n), 0, n.rows);
  t.oneTmpSize = per * n.pitch;
  t.secondTmpStartPos = t.oneTmpSize;
  t.loopRound = per == 0 ? 0 : n.rows / per;
  t.inputRoundSize = t.oneTmpSize;
  t.inputTailSize = per == 0 ? 0 : (n.rows % per) * n.pitch;
  t.inputTailPos = t.loopRound * t.oneTmpSize;
  t.meanVarRoundSize = per;
  t.meanVarTailSize = per == 0 ? 0 : n.rows % per;
  t.meanVarTailPos = t.loopRound * per;
  return per;
}

inline void norm_tmp_range(const NormShape& n, uint32_t& max_value, uint32_t& min_value) {
  max_value = align32(uint64_t{two_float_rows(n)} * n.rows);
  min_value = n.rows == 0 ? 0 : align32(two_float_rows(n));
}

/// The pass split shared by LayerNormTiling and DeepNormTiling.
template <class Tiling>
void fill_bsh_tiling(const NormShape& n, uint32_t stack_bytes, Tiling& t) {
  t = Tiling{};
  t.bLength = n.b;
  t.sLength = n.s;
  t.hLength = n.pitch;
  t.originalHLength = n.valid;
  const uint32_t per = fill_row_passes(n, stack_bytes, t);
  t.bshCurLength = t.oneTmpSize;
  t.bsCurLength = per;
  t.lastDimValueBack = n.valid == 0 ? 0.0f : 1.0f / static_cast<float>(n.valid);
}

inline void fill_ar_tiling(const NormShape& n, uint32_t stack_bytes, ::LayerNormSeparateTiling& t) {
  t = ::LayerNormSeparateTiling{};
  t.aLength = n.rows;
  t.rLength = n.valid;
  uint32_t head = 1;
  while (head * 2 <= n.valid) head *= 2;
  t.rHeadLength = n.valid == 0 ? 0 : head;
  t.halfAddRepeatTimes = 0;
  t.k2Rec = n.valid == 0 ? 0.0f : 1.0f / static_cast<float>(head);
  t.k2RRec = n.valid == 0 ? 0.0f : static_cast<float>(head) / static_cast<float>(n.valid);
  const uint32_t per = fill_row_passes(n, stack_bytes, t);
  t.arCurLength = t.oneTmpSize;
  t.aCurLength = per;
  t.rValueBack = n.valid == 0 ? 0.0f : 1.0f / static_cast<float>(n.valid);
}

}  // namespace npusim::tiling::norm

namespace AscendC {

inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                      const bool /*isReuseSource*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  npusim::tiling::norm::norm_tmp_range(npusim::tiling::norm::bsh_shape(srcShape), maxValue,
                                       minValue);
}

inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                      const bool /*isReuseSource*/, const bool /*isComputeRstd*/,
                                      const bool /*isOnlyOutput*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  npusim::tiling::norm::norm_tmp_range(npusim::tiling::norm::ar_shape(srcShape), maxValue,
                                       minValue);
}

inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t /*typeSize*/, const bool /*isReuseSource*/,
                                     ::LayerNormTiling& tiling) {
  npusim::tiling::norm::fill_bsh_tiling(npusim::tiling::norm::bsh_shape(srcShape), stackBufferSize,
                                        tiling);
}

inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling) {
  ::LayerNormTiling t;
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
  npusim::tiling::norm::assign(tiling, t);
}

/// CANN's earlier spelling.
inline void GetLayerNormNDTillingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t /*typeSize*/, const bool /*isReuseSource*/,
                                     const bool /*isComputeRstd*/,
                                     ::LayerNormSeparateTiling& tiling) {
  npusim::tiling::norm::fill_ar_tiling(npusim::tiling::norm::ar_shape(srcShape), stackBufferSize,
                                       tiling);
}

inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
  ::LayerNormSeparateTiling t;
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, t);
  npusim::tiling::norm::assign(tiling, t);
}

inline void GetNormalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSizeU*/,
                                      const uint32_t /*typeSizeT*/, const bool /*isReuseSource*/,
                                      const bool /*isComputeRstd*/, const bool /*isOnlyOutput*/,
                                      uint32_t& maxValue, uint32_t& minValue) {
  npusim::tiling::norm::norm_tmp_range(npusim::tiling::norm::ar_shape(srcShape), maxValue,
                                       minValue);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_NORMALIZATION_LAYERNORM_TILING_H_
