// SPDX-License-Identifier: Apache-2.0
// The AscendAntiQuant high-level API of the Ascend C twin (untransposed src):
//   per channel: src [K, N], offset and scale [G, N] (G groups of K / G rows),
//     dst[i][j] = scale[i / (K / G)][j] * (src[i][j] + offset[i / (K / G)][j])
//   per tensor (scalar offset and scale): dst = scale * (src + offset)
// (without offset: the same with offset 0, no Add). [G, N] comes from the AntiQuantShapeInfo
// argument, else from offset's (scale's) ShapeInfo (LocalTensor::SetShapeInfo); neither fails.
// Computed in OutputDataType (half: every step rounded to half). Timing, on the vector pipe:
// one Cast src -> dst over all K * N elements, then per pass of rows of one group a Broadcast of
// the offset row + Add and a Broadcast of the scale row + Mul (per tensor: Adds, Muls).
// Temporary space: N elements of OutputDataType per row of a pass (at least one row;
// GetAscendAntiQuantMaxMinTmpSize). InputDataType is int8_t, OutputDataType half or float;
// isTranspose = true is not in the twin (compile-time error). The per-tensor forms
// convert all of src (its size), k only checked positive.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/norm_ops.h"
#include "npusim/ascendc/shape_info.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct AntiQuantShapeInfo {
  std::uint32_t offsetHeight{0};
  std::uint32_t offsetWidth{0};
  std::uint32_t scaleHeight{0};
  std::uint32_t scaleWidth{0};
};

}  // namespace AscendC

namespace npusim::ascendc::quant {

using AscendC::LocalTensor;

template <class In, class Out, bool kTranspose>
constexpr void check_antiquant_types() {
  static_assert(std::is_same_v<In, std::int8_t>, "the twin's AscendAntiQuant takes int8_t src");
  static_assert(std::is_same_v<Out, float> || std::is_same_v<Out, Half>,
                "the twin's AscendAntiQuant outputs half or float");
  static_assert(!kTranspose, "the twin's AscendAntiQuant takes an untransposed src");
}

/// [groups, columns] of the per-channel parameters.
struct GroupShape {
  std::uint32_t groups = 0;
  std::uint32_t cols = 0;
};

inline GroupShape group_shape(std::uint32_t h, std::uint32_t w, const AscendC::ShapeInfo& info) {
  if (h != 0 && w != 0) return {h, w};
  if (info.shapeDim == 2 && info.shape[0] != 0 && info.shape[1] != 0) {
    return {info.shape[0], info.shape[1]};
  }
  fail("AscendAntiQuant",
       "the offset / scale shape is unknown: pass AntiQuantShapeInfo or call "
       "SetShapeInfo with their [groups, N] on the offset (scale) tensor");
}

/// One group's rows [row0, row0 + rows) of dst: + offset row, * scale row, in passes of `per`.
template <class Out>
void antiquant_group(const LocalTensor<Out>& dst, const LocalTensor<Out>& offset,
                     const LocalTensor<Out>& scale, const LocalTensor<Out>& spread,
                     std::uint32_t row0, std::uint32_t rows, std::uint32_t cols,
                     std::uint32_t per) {
  for (std::uint32_t r = 0; r < rows; r += per) {
    const std::uint32_t n = rows - r < per ? rows - r : per;
    const std::uint32_t dst_shape[2] = {n, cols};
    const std::uint32_t src_shape[2] = {1, cols};
    const LocalTensor<Out> part = dst[(row0 + r) * cols];
    const auto c = static_cast<std::int32_t>(n * cols);
    if (offset.twin_data() != nullptr) {
      AscendC::Broadcast<Out, 2, 0>(spread, offset, dst_shape, src_shape);
      AscendC::Add(part, part, spread, c);
    }
    AscendC::Broadcast<Out, 2, 0>(spread, scale, dst_shape, src_shape);
    AscendC::Mul(part, part, spread, c);
  }
}

template <class Out>
void antiquant_channel(const LocalTensor<Out>& dst, const LocalTensor<std::int8_t>& src,
                       const LocalTensor<Out>& offset, const LocalTensor<Out>& scale,
                       const HighLevelTmp& tmp, std::uint32_t k, GroupShape g) {
  if (k == 0 || g.groups == 0 || k % g.groups != 0) {
    fail("AscendAntiQuant", "k = %u rows do not split into %u groups", k, g.groups);
  }
  const std::uint32_t row_bytes = g.cols * static_cast<std::uint32_t>(sizeof(Out));
  const std::uint32_t per = tmp.bytes() / row_bytes;
  if (per == 0) {
    fail("AscendAntiQuant",
         "temporary space of %u bytes holds no row of %u bytes "
         "(GetAscendAntiQuantMaxMinTmpSize)",
         tmp.bytes(), row_bytes);
  }
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, k * g.cols);
  const std::uint32_t size = k / g.groups;
  for (std::uint32_t grp = 0; grp < g.groups; ++grp) {
    const LocalTensor<Out> off = offset.twin_data() != nullptr ? offset[grp * g.cols] : offset;
    antiquant_group(dst, off, scale[grp * g.cols], tmp.as<Out>(), grp * size, size, g.cols, per);
  }
}

template <class Out>
void antiquant_tensor(const LocalTensor<Out>& dst, const LocalTensor<std::int8_t>& src,
                      const Out* offset, Out scale, std::uint32_t k, std::uint32_t count) {
  if (k == 0) fail("AscendAntiQuant", "k must be positive");
  const auto c = static_cast<std::int32_t>(count);
  AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, count);
  if (offset != nullptr) AscendC::Adds(dst, dst, *offset, c);
  AscendC::Muls(dst, dst, scale, c);
}

template <class Out>
HighLevelTmp framework_antiquant_tmp(std::uint32_t k, GroupShape g) {
  const std::uint32_t row = g.cols * static_cast<std::uint32_t>(sizeof(Out));
  return HighLevelTmp("AscendAntiQuant", "GetAscendAntiQuantMaxMinTmpSize",
                      (row * k + 31) / 32 * 32, (row + 31) / 32 * 32);
}

}  // namespace npusim::ascendc::quant

namespace AscendC {

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst,
                            const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset,
                            const LocalTensor<OutputDataType>& scale,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}) {
  using namespace npusim::ascendc::quant;
  check_antiquant_types<InputDataType, OutputDataType, isTranspose>();
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  antiquant_channel(
      dst, src, offset, scale, tmp, k,
      group_shape(shapeInfo.offsetHeight, shapeInfo.offsetWidth, offset.GetShapeInfo()));
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst,
                            const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& scale,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}) {
  using namespace npusim::ascendc::quant;
  check_antiquant_types<InputDataType, OutputDataType, isTranspose>();
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  antiquant_channel(dst, src, LocalTensor<OutputDataType>(), scale, tmp, k,
                    group_shape(shapeInfo.scaleHeight, shapeInfo.scaleWidth, scale.GetShapeInfo()));
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst,
                            const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset,
                            const LocalTensor<OutputDataType>& scale, const std::uint32_t k,
                            const AntiQuantShapeInfo& shapeInfo = {}) {
  using namespace npusim::ascendc::quant;
  check_antiquant_types<InputDataType, OutputDataType, isTranspose>();
  const GroupShape g =
      group_shape(shapeInfo.offsetHeight, shapeInfo.offsetWidth, offset.GetShapeInfo());
  const npusim::ascendc::HighLevelTmp tmp = framework_antiquant_tmp<OutputDataType>(k, g);
  antiquant_channel(dst, src, offset, scale, tmp, k, g);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst,
                            const LocalTensor<InputDataType>& src, const OutputDataType offset,
                            const OutputDataType scale,
                            const LocalTensor<std::uint8_t>& /*sharedTmpBuffer*/,
                            const std::uint32_t k, const AntiQuantShapeInfo& /*shapeInfo*/ = {}) {
  npusim::ascendc::quant::check_antiquant_types<InputDataType, OutputDataType, isTranspose>();
  npusim::ascendc::quant::antiquant_tensor(dst, src, &offset, scale, k, src.GetSize());
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst,
                            const LocalTensor<InputDataType>& src, const OutputDataType offset,
                            const OutputDataType scale, const std::uint32_t k,
                            const AntiQuantShapeInfo& /*shapeInfo*/ = {}) {
  npusim::ascendc::quant::check_antiquant_types<InputDataType, OutputDataType, isTranspose>();
  npusim::ascendc::quant::antiquant_tensor(dst, src, &offset, scale, k, src.GetSize());
}

}  // namespace AscendC
