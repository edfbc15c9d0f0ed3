// SPDX-License-Identifier: Apache-2.0
// ShapeInfo of the Ascend C twin: the logical shape a kernel attaches to a LocalTensor
// (LocalTensor::SetShapeInfo / GetShapeInfo) for the high-level APIs that read it (e.g.
// AscendAntiQuant takes the offset's [rows, columns] from it). Up to 8 dimensions, the shape
// as stored and the original (unpadded) shape, and the data format. Pure bookkeeping: no
// instruction is recorded.
#pragma once

#include <cstdint>

#include "kernel_tiling/ascendc_types.h"

namespace AscendC {

inline constexpr std::uint32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
  ShapeInfo() = default;
  ShapeInfo(std::uint8_t dims, const std::uint32_t in_shape[], std::uint8_t original_dims,
            const std::uint32_t in_original[], DataFormat format = DataFormat::ND)
      : shapeDim(clamp_dims(dims)),
        originalShapeDim(clamp_dims(original_dims)),
        dataFormat(format) {
    for (std::uint32_t i = 0; i < shapeDim; ++i) shape[i] = in_shape[i];
    for (std::uint32_t i = 0; i < originalShapeDim; ++i) originalShape[i] = in_original[i];
  }
  /// The original shape is the shape.
  ShapeInfo(std::uint8_t dims, const std::uint32_t in_shape[], DataFormat format = DataFormat::ND)
      : ShapeInfo(dims, in_shape, dims, in_shape, format) {}

  std::uint8_t shapeDim = 0;
  std::uint8_t originalShapeDim = 0;
  std::uint32_t shape[K_MAX_SHAPE_DIM] = {};
  std::uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;

 private:
  static std::uint8_t clamp_dims(std::uint8_t d) {
    return d > K_MAX_SHAPE_DIM ? static_cast<std::uint8_t>(K_MAX_SHAPE_DIM) : d;
  }
};

/// Elements of the shape (1 for a 0-dimensional one).
inline std::uint32_t GetShapeSize(const ShapeInfo& info) {
  std::uint32_t n = 1;
  for (std::uint32_t i = 0; i < info.shapeDim; ++i) n *= info.shape[i];
  return n;
}

}  // namespace AscendC
