/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling of the ConfusionTranspose form of Transpose
 * (lib/transform/confusion_transpose.h): optiling::ConfusionTransposeTiling (the
 * BEGIN_TILING_DATA_DEF class of kernel_tiling/transform_tiling.h's ConfusionTransposeTiling),
 * GetTransposeTilingInfo that fills it from the [B, N, S, H/N] shape, and the temporary space:
 * the twin moves 32-byte blocks with strided Copy instructions and needs none (0).
 */
#ifndef NPUSIM_TILING_TRANSFORM_TRANSPOSE_TILING_H_
#define NPUSIM_TILING_TRANSFORM_TRANSPOSE_TILING_H_

#include <cstdint>
#include <cstdio>

#include "kernel_tiling/transform_tiling.h"
#include "tiling/tensor_shape.h"
#include "tiling/tiling_data_def.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
NPUSIM_CONFUSION_TRANSPOSE_TILING_FIELDS(NPUSIM_TILING_U32_FIELD)
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {

inline void GetTransposeMaxMinTmpSize(const TensorShape& /*srcShape*/, const uint32_t /*typeSize*/,
                                      const uint32_t /*transposeTypeId*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
}

/// Fills the tiling of srcShape [B, N, S, H/N] for TransposeType transposeTypeId.
inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeId,
                                   optiling::ConfusionTransposeTiling& tiling) {
  if (srcShape.GetDimNum() != 4) {
    std::fprintf(stderr, "[npusim] GetTransposeTilingInfo: a [B, N, S, H/N] shape is expected, "
                 "got %zu dimensions\n", srcShape.GetDimNum());
    return;
  }
  tiling.set_batch(static_cast<uint32_t>(srcShape.GetDim(0)));
  tiling.set_heads(static_cast<uint32_t>(srcShape.GetDim(1)));
  tiling.set_seqLen(static_cast<uint32_t>(srcShape.GetDim(2)));
  tiling.set_headDim(static_cast<uint32_t>(srcShape.GetDim(3)));
  tiling.set_typeSize(typeSize);
  tiling.set_transposeTypeId(transposeTypeId);
  tiling.set_tmpBufferSize(stackBufferSize);
}

inline void GetConfusionTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeId, uint32_t& maxValue,
                                               uint32_t& minValue) {
  GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeId, maxValue, minValue);
}

inline void GetConfusionTransposeTilingInfo(const TensorShape& srcShape,
                                            const uint32_t stackBufferSize,
                                            const uint32_t typeSize,
                                            const uint32_t transposeTypeId,
                                            optiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeId, tiling);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_TRANSFORM_TRANSPOSE_TILING_H_
