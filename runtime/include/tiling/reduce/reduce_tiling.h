/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of the reduction APIs the twin has (npusim/ascendc/norm_ops.h:
 * Sum, ReduceMax / ReduceMin / ReduceSum with the AR and RA patterns): their temporary space.
 * The twin's reductions are one vector instruction each and keep their partial results in the
 * instruction; the range is what a staged reduction would keep: one 32-byte block per 256-byte
 * repeat of a row (AR, Sum), one row of columns rounded up to 32 bytes (RA), at least one block;
 * maxValue equals minValue. The sharedTmpBuffer, when given, is recorded as written.
 */
#ifndef NPUSIM_TILING_REDUCE_REDUCE_TILING_H_
#define NPUSIM_TILING_REDUCE_REDUCE_TILING_H_

#include <cstdint>

#include "tiling/tensor_shape.h"
#include "kernel_tiling/ascendc_types.h"

namespace AscendC {

}  // namespace AscendC

namespace npusim::tiling {

inline uint32_t tensor_type_size(AscendC::TensorDataType t) {
  switch (t) {
    case AscendC::TensorDataType::DT_INT8:
    case AscendC::TensorDataType::DT_UINT8:
    case AscendC::TensorDataType::DT_BOOL:
      return 1;
    case AscendC::TensorDataType::DT_FLOAT16:
    case AscendC::TensorDataType::DT_BF16:
    case AscendC::TensorDataType::DT_INT16:
    case AscendC::TensorDataType::DT_UINT16:
      return 2;
    case AscendC::TensorDataType::DT_INT64:
    case AscendC::TensorDataType::DT_UINT64:
    case AscendC::TensorDataType::DT_DOUBLE:
      return 8;
    default:
      return 4;
  }
}

/// One 32-byte block per 256-byte repeat of `elems` elements of `type_size` bytes (at least one).
inline uint32_t reduce_partials(uint64_t elems, uint32_t type_size) {
  const uint64_t repeats = (elems * type_size + 255) / 256;
  return static_cast<uint32_t>(repeats == 0 ? 32 : repeats * 32);
}

inline void reduce2d_tmp(const ge::Shape& shape, AscendC::TensorDataType type,
                         AscendC::ReducePattern pattern, bool inner_pad, uint32_t& max_value,
                         uint32_t& min_value) {
  const uint32_t size = tensor_type_size(type);
  const uint64_t cols = shape.GetDimNum() >= 2 ? static_cast<uint64_t>(shape.GetDim(1)) : 0;
  const uint64_t per_blk = 32 / size;
  const uint64_t pitch = inner_pad ? (cols + per_blk - 1) / per_blk * per_blk : cols;
  // AR: the partials of one row; RA: one row of per-column partials.
  const uint64_t row_bytes = (pitch * size + 31) / 32 * 32;
  max_value = pattern == AscendC::ReducePattern::RA
                  ? static_cast<uint32_t>(row_bytes == 0 ? 32 : row_bytes)
                  : reduce_partials(pitch, size);
  min_value = max_value;
}

}  // namespace npusim::tiling

namespace AscendC {

inline void GetReduceMaxMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad,
                                      bool /*isReuseSource*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  npusim::tiling::reduce2d_tmp(srcShape, dataType, pattern, isSrcInnerPad, maxValue, minValue);
}
inline void GetReduceMinMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad,
                                      bool /*isReuseSource*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  npusim::tiling::reduce2d_tmp(srcShape, dataType, pattern, isSrcInnerPad, maxValue, minValue);
}
inline void GetReduceSumMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad,
                                      bool /*isReuseSource*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  npusim::tiling::reduce2d_tmp(srcShape, dataType, pattern, isSrcInnerPad, maxValue, minValue);
}

/// Sum over rows of n elements of typeSize bytes.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize,
                                const bool /*isReuseSource*/, uint32_t& maxSize,
                                uint32_t& minSize) {
  maxSize = npusim::tiling::reduce_partials(n, typeSize);
  minSize = maxSize;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_REDUCE_REDUCE_TILING_H_
