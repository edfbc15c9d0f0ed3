// SPDX-License-Identifier: Apache-2.0
// AscendC::DataFormat and AscendC::ShapeInfo of the twin, and where LocalTensor::SetShapeInfo
// keeps a tensor's shape: a table of the calling thread (the block running) by the tensor's
// address; GetShapeInfo returns what the same block set for that address, else an empty
// ShapeInfo (shapeDim 0). Bookkeeping only: no instruction is recorded.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"

namespace AscendC {

enum class DataFormat : std::uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

constexpr std::uint32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
  ShapeInfo() = default;
  ShapeInfo(std::uint8_t dims, const std::uint32_t shape_in[],
            DataFormat format = DataFormat::ND)
      : ShapeInfo(dims, shape_in, dims, shape_in, format) {}
  ShapeInfo(std::uint8_t dims, const std::uint32_t shape_in[], std::uint8_t original_dims,
            const std::uint32_t original_in[], DataFormat format = DataFormat::ND)
      : shapeDim(dims > K_MAX_SHAPE_DIM ? K_MAX_SHAPE_DIM : dims),
        originalShapeDim(original_dims > K_MAX_SHAPE_DIM ? K_MAX_SHAPE_DIM : original_dims),
        dataFormat(format) {
    for (std::uint32_t i = 0; i < shapeDim; ++i) shape[i] = shape_in[i];
    for (std::uint32_t i = 0; i < originalShapeDim; ++i) originalShape[i] = original_in[i];
  }
  std::uint8_t shapeDim = 0;
  std::uint8_t originalShapeDim = 0;
  std::uint32_t shape[K_MAX_SHAPE_DIM] = {};
  std::uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC

namespace npusim::ascendc {

struct ShapeInfoEntry {
  const BlockContext* ctx = nullptr;
  AscendC::ShapeInfo info;
};

inline std::unordered_map<const void*, ShapeInfoEntry>& shape_info_table() {
  thread_local std::unordered_map<const void*, ShapeInfoEntry> table;
  return table;
}

template <>
inline void set_shape_info<AscendC::ShapeInfo>(const void* at, const AscendC::ShapeInfo& info) {
  ScalarPause pause(block());
  shape_info_table()[at] = {&block(), info};
}

template <>
inline AscendC::ShapeInfo get_shape_info<AscendC::ShapeInfo>(const void* at) {
  ScalarPause pause(block());
  const auto it = shape_info_table().find(at);
  if (it == shape_info_table().end() || it->second.ctx != &block()) return {};
  return it->second.info;
}

}  // namespace npusim::ascendc
