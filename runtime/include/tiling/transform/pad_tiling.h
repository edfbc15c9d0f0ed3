/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling of Pad and UnPad (lib/transform/pad.h): optiling::PadTiling and
 * optiling::UnPadTiling (the BEGIN_TILING_DATA_DEF classes of kernel_tiling/transform_tiling.h's
 * AscendC::tiling::PadTiling / UnPadTiling), PadTilingFunc / UnPadTilingFunc that fill them from
 * the 2-D shape, and the temporary space: the twin's Pad and UnPad move rows with Copy
 * instructions and need none, so both sizes are 0.
 */
#ifndef NPUSIM_TILING_TRANSFORM_PAD_TILING_H_
#define NPUSIM_TILING_TRANSFORM_PAD_TILING_H_

#include <cstdint>
#include <cstdio>

#include "kernel_tiling/transform_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tensor_shape.h"
#include "tiling/tiling_data_def.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PadTiling)
NPUSIM_PAD_TILING_FIELDS(NPUSIM_TILING_U32_FIELD)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(UnPadTiling)
NPUSIM_UNPAD_TILING_FIELDS(NPUSIM_TILING_U32_FIELD)
END_TILING_DATA_DEF;
}  // namespace optiling

namespace npusim::tiling {

/// The (height, width) of a 2-D shape; false (logged) for another rank.
inline bool rows_of(const AscendC::TensorShape& shape, const char* api, std::uint32_t& height,
                    std::uint32_t& width) {
  if (shape.GetDimNum() != 2) {
    std::fprintf(stderr, "[npusim] %s: a 2-D shape is expected, got %zu dimensions\n", api,
                 shape.GetDimNum());
    height = width = 0;
    return false;
  }
  height = static_cast<std::uint32_t>(shape.GetDim(0));
  width = static_cast<std::uint32_t>(shape.GetDim(1));
  return true;
}

}  // namespace npusim::tiling

namespace AscendC {

inline void GetPadMaxMinTmpSize(const TensorShape& /*srcShape*/, const uint32_t /*typeSize*/,
                                uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
}

/// Fills the Pad tiling of srcShape [height, width] whose valid columns are oriSrcShape's width.
inline void PadTilingFunc(const TensorShape& srcShape, const TensorShape& oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t typeSize,
                          optiling::PadTiling& tiling) {
  uint32_t h = 0, w = 0, ori_h = 0, ori_w = 0;
  npusim::tiling::rows_of(srcShape, "PadTilingFunc", h, w);
  npusim::tiling::rows_of(oriSrcShape, "PadTilingFunc", ori_h, ori_w);
  const uint32_t per_block = typeSize == 0 ? 1 : 32 / typeSize;
  tiling.set_srcHeight(h);
  tiling.set_srcWidth(w);
  tiling.set_srcOriWidth(ori_w);
  tiling.set_dstWidth((w + per_block - 1) / per_block * per_block);
  tiling.set_typeSize(typeSize);
  tiling.set_tmpBufferSize(stackBufferSize);
}

inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                  const TensorShape& /*srcShape*/, const uint32_t /*typeSize*/,
                                  uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
}

/// Fills the UnPad tiling of srcShape [height, width].
inline void UnPadTilingFunc(const TensorShape& srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, optiling::UnPadTiling& tiling) {
  uint32_t h = 0, w = 0;
  npusim::tiling::rows_of(srcShape, "UnPadTilingFunc", h, w);
  tiling.set_srcHeight(h);
  tiling.set_srcWidth(w);
  tiling.set_typeSize(typeSize);
  tiling.set_tmpBufferSize(stackBufferSize);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_TRANSFORM_PAD_TILING_H_
