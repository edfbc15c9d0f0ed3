/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of the quantization APIs (lib/quantization):
 *   GetAscendQuantMaxMinTmpSize: one half (2 bytes) per element, in passes of multiples of 64
 *     elements: maxValue all elements, minValue 64 (or all when fewer).
 *   GetAscendDequantMaxMinTmpSize: srcShape {m, n}: one float row (n floats) when dst is half or
 *     bfloat16_t (float dst needs none, the same range is reported: dst's type is not an argument).
 *   GetAscendAntiQuantMaxMinTmpSize: scaleShape's last dimension N elements of the output type
 *     per row of a pass: maxValue all K = src / N rows, minValue one row.
 * AscendC::TensorDataType names element types with the graph engine's numbering.
 */
#ifndef NPUSIM_TILING_QUANTIZATION_QUANT_TILING_H_
#define NPUSIM_TILING_QUANTIZATION_QUANT_TILING_H_

#include <cstdint>

#include "tiling/activation/activation_tmp_size.h"
#include "tiling/tensor_shape.h"
#include "kernel_tiling/ascendc_types.h"

namespace AscendC {

}  // namespace AscendC

namespace npusim::tiling::quant {

/// Bytes of one element of the output types AscendAntiQuant supports (0 for others).
inline uint32_t antiquant_out_bytes(AscendC::TensorDataType t) {
  switch (t) {
    case AscendC::TensorDataType::DT_FLOAT:
      return 4;
    case AscendC::TensorDataType::DT_FLOAT16:
    case AscendC::TensorDataType::DT_BF16:
      return 2;
    default:
      return 0;
  }
}

inline uint32_t last_dim(const ge::Shape& shape) {
  const size_t n = shape.GetDimNum();
  const int64_t d = n == 0 ? 0 : shape.GetDim(n - 1);
  return d > 0 && d <= int64_t{0xFFFFFFFF} ? static_cast<uint32_t>(d) : 0u;
}

}  // namespace npusim::tiling::quant

namespace AscendC {

inline void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                        uint32_t& maxValue, uint32_t& minValue) {
  maxValue = npusim::tiling::max_tmp(2, npusim::tiling::shape_elems(srcShape));
  minValue = npusim::tiling::min_tmp(2, npusim::tiling::shape_elems(srcShape));
}

inline void GetAscendDequantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                          uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = npusim::tiling::max_tmp(4, npusim::tiling::quant::last_dim(srcShape));
}

inline void GetAscendAntiQuantMaxMinTmpSize(const TensorShape& srcShape,
                                            const TensorShape& scaleShape, bool /*isTranspose*/,
                                            TensorDataType /*inputDataType*/,
                                            TensorDataType outputDataType, uint32_t& maxValue,
                                            uint32_t& minValue) {
  using npusim::tiling::max_tmp;
  const uint32_t n = npusim::tiling::quant::last_dim(scaleShape);
  const uint32_t row = n * npusim::tiling::quant::antiquant_out_bytes(outputDataType);
  const uint32_t rows = n == 0 ? 0 : npusim::tiling::shape_elems(srcShape) / n;
  maxValue = max_tmp(row, rows);
  minValue = rows == 0 ? 0 : max_tmp(row, 1);
}

inline uint32_t GetAscendAntiQuantMaxTmpSize(const TensorShape& srcShape,
                                             const TensorShape& scaleShape, bool isTranspose,
                                             TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
  uint32_t max_value = 0, min_value = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType,
                                  max_value, min_value);
  return max_value;
}

inline uint32_t GetAscendAntiQuantMinTmpSize(const TensorShape& srcShape,
                                             const TensorShape& scaleShape, bool isTranspose,
                                             TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
  uint32_t max_value = 0, min_value = 0;
  GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType,
                                  max_value, min_value);
  return min_value;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_QUANTIZATION_QUANT_TILING_H_
