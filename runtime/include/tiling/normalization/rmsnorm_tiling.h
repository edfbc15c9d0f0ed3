/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of RmsNorm (lib/normalization/rmsnorm.h), srcShape {B, S, H}
 * (originSrcShape's H: the valid elements of a row). A pass of r rows needs r * H + r (rounded up
 * to 8) floats of temporary space: maxValue all rows, minValue one row. GetRmsNormTilingInfo
 * splits the rows into passes that fit stackBufferByteSize (isBasicBlock: passes of a multiple of
 * 8 rows; it then needs H a multiple of 64 and B * S of 8, else both functions return false).
 */
#ifndef NPUSIM_TILING_NORMALIZATION_RMSNORM_TILING_H_
#define NPUSIM_TILING_NORMALIZATION_RMSNORM_TILING_H_

#include <cstdint>

#include "tiling/normalization/norm_tiling_data.h"
#include "tiling/tensor_shape.h"

namespace npusim::tiling::norm {

inline uint32_t rms_pass_bytes(uint32_t rows, uint32_t h) {
  return (rows * h + (rows + 7) / 8 * 8) * 4;
}

inline bool rms_basic_ok(const NormShape& n) { return n.pitch % 64 == 0 && n.rows % 8 == 0; }

inline bool fill_rms_tiling(const NormShape& n, uint32_t stack_bytes, bool basic,
                            ::RmsNormTiling& t) {
  if (n.rows == 0 || n.pitch == 0 || (basic && !rms_basic_ok(n))) return false;
  uint32_t per = 0;
  while (per < n.rows && rms_pass_bytes(per + 1, n.pitch) <= stack_bytes) ++per;
  if (basic && per >= 8) per = per / 8 * 8;
  if (per == 0) return false;
  t = ::RmsNormTiling{};
  t.bLength = n.b;
  t.sLength = n.s;
  t.hLength = n.pitch;
  t.originalHLength = n.valid;
  t.reciprocalOfHLength = 1.0f / static_cast<float>(n.valid);
  t.mainBshLength = per * n.pitch;
  t.mainBsLength = per;
  t.mainBsLengthAlign = (per + 7) / 8 * 8;
  t.loopRound = n.rows / per;
  t.inputTailPos = t.loopRound * t.mainBshLength;
  t.tailBsLength = n.rows % per;
  t.tailBshLength = t.tailBsLength * n.pitch;
  return true;
}

}  // namespace npusim::tiling::norm

namespace AscendC {

inline bool GetRmsNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                    uint32_t& maxValue, uint32_t& minValue,
                                    const bool isBasicBlock = false) {
  using namespace npusim::tiling::norm;
  const NormShape n = bsh_shape(srcShape);
  if (n.rows == 0 || n.pitch == 0 || (isBasicBlock && !rms_basic_ok(n))) return false;
  maxValue = rms_pass_bytes(n.rows, n.pitch);
  minValue = rms_pass_bytes(isBasicBlock && n.rows >= 8 ? 8 : 1, n.pitch);
  return true;
}

inline bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t /*typeSize*/,
                                 ::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  using namespace npusim::tiling::norm;
  return fill_rms_tiling(bsh_shape(srcShape, &originSrcShape), stackBufferByteSize, isBasicBlock,
                         tiling);
}

inline bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  ::RmsNormTiling t;
  if (!GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, t,
                            isBasicBlock)) {
    return false;
  }
  npusim::tiling::norm::assign(tiling, t);
  return true;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_NORMALIZATION_RMSNORM_TILING_H_
