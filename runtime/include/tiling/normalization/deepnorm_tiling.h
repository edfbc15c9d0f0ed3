/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of DeepNorm (lib/normalization/deepnorm.h), srcShape {B, S, H}
 * (originSrcShape's H: the valid elements of a row): LayerNorm's temporary space (two floats per
 * element of a pass's rows, layernorm_tiling.h) and tiling fields. isBasicBlock needs H a
 * multiple of 64 and B * S of 8, else both functions return false.
 */
#ifndef NPUSIM_TILING_NORMALIZATION_DEEPNORM_TILING_H_
#define NPUSIM_TILING_NORMALIZATION_DEEPNORM_TILING_H_

#include <cstdint>

#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/normalization/norm_tiling_data.h"
#include "tiling/tensor_shape.h"

namespace npusim::tiling::norm {

inline bool deepnorm_shape_ok(const NormShape& n, bool basic) {
  return n.rows != 0 && n.pitch != 0 && (!basic || (n.pitch % 64 == 0 && n.rows % 8 == 0));
}

}  // namespace npusim::tiling::norm

namespace AscendC {

inline bool GetDeepNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                     const bool /*isReuseSource*/, const bool isBasicBlock,
                                     uint32_t& maxValue, uint32_t& minValue) {
  using namespace npusim::tiling::norm;
  const NormShape n = bsh_shape(srcShape);
  if (!deepnorm_shape_ok(n, isBasicBlock)) return false;
  norm_tmp_range(n, maxValue, minValue);
  return true;
}

inline bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t /*typeSize*/,
                                  const bool /*isReuseSource*/, const bool isBasicBlock,
                                  ::DeepNormTiling& tiling) {
  using namespace npusim::tiling::norm;
  const NormShape n = bsh_shape(srcShape, &originSrcShape);
  if (!deepnorm_shape_ok(n, isBasicBlock)) return false;
  fill_bsh_tiling(n, stackBufferSize, tiling);
  return true;
}

inline bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize,
                                  const bool isReuseSource, const bool isBasicBlock,
                                  optiling::DeepNormTiling& tiling) {
  ::DeepNormTiling t;
  if (!GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource,
                             isBasicBlock, t)) {
    return false;
  }
  npusim::tiling::norm::assign(tiling, t);
  return true;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_NORMALIZATION_DEEPNORM_TILING_H_
