/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling of TransData (lib/transform/trans_data.h): the temporary space. For
 * NCDHW -> FRACTAL_Z_3D the twin transposes into a buffer laid out as the destination with
 * H * W padded to 16 positions, plus one 32-byte zero block: that size is both the minimum and
 * the maximum. The other format pairs are not supported (false).
 */
#ifndef NPUSIM_TILING_TRANSFORM_TRANS_DATA_TILING_H_
#define NPUSIM_TILING_TRANSFORM_TRANS_DATA_TILING_H_

#include <cstdint>

#include "kernel_tiling/transform_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/sort/sort_tiling.h"
#include "tiling/tensor_shape.h"

namespace AscendC {

inline bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*platform*/,
                                      const TensorShape& srcShape, const TensorShape& /*dstShape*/,
                                      const TensorDataType dataType, const TransDataConfig& config,
                                      uint32_t& maxValue, uint32_t& minValue) {
  const bool two_bytes = dataType == TensorDataType::DT_FLOAT16 ||
                         dataType == TensorDataType::DT_BF16 ||
                         dataType == TensorDataType::DT_INT16 ||
                         dataType == TensorDataType::DT_UINT16;
  if (!two_bytes || config.srcFormat != DataFormat::NCDHW ||
      config.dstFormat != DataFormat::FRACTAL_Z_3D || srcShape.GetDimNum() != 5)
    return false;
  const uint64_t n1 = (static_cast<uint64_t>(srcShape.GetDim(0)) + 15) / 16;
  const uint64_t c1 = (static_cast<uint64_t>(srcShape.GetDim(1)) + 15) / 16;
  const uint64_t d = static_cast<uint64_t>(srcShape.GetDim(2));
  const uint64_t hw = static_cast<uint64_t>(srcShape.GetDim(3) * srcShape.GetDim(4));
  const uint64_t hw_pad = (hw + 15) / 16 * 16;
  maxValue = minValue = static_cast<uint32_t>((d * c1 * hw_pad * n1 * 256 + 16) * 2);
  return true;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_TRANSFORM_TRANS_DATA_TILING_H_
