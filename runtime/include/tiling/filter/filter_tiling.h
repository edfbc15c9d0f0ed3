/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling of the filter high-level APIs: the temporary space of the byte-mask
 * Select (lib/filter/select.h) and of DropOut (lib/filter/dropout.h). Both convert the mask in
 * passes: per element the mask cast to half (float for 32-bit masks) and one bit, plus 64 bytes
 * of alignment; maxValue holds a whole row (all rows when the mask has no extra columns),
 * minValue 64 elements of it (the whole row when shorter). DropOut's bit mode needs no space,
 * but the sizes stay those of the byte mode (the kernel may pass any of them).
 */
#ifndef NPUSIM_TILING_FILTER_FILTER_TILING_H_
#define NPUSIM_TILING_FILTER_FILTER_TILING_H_

#include <cstdint>

#include "tiling/tensor_shape.h"

namespace npusim::tiling {

constexpr uint32_t kMaskSlack = 64;

inline uint32_t mask_pass_max(uint32_t per_elem, uint64_t row) {
  return static_cast<uint32_t>((row * per_elem + 31) / 32 * 32) + kMaskSlack;
}
inline uint32_t mask_pass_min(uint32_t per_elem, uint64_t row) {
  const uint64_t elems = row < 64 ? row : 64;
  return static_cast<uint32_t>((elems * per_elem + 31) / 32 * 32) + kMaskSlack;
}

/// The elements one pass covers at most: all of them when the last axes agree, else one row.
inline uint64_t mask_row(const AscendC::TensorShape& src, const AscendC::TensorShape& mask) {
  const size_t dims = src.GetDimNum();
  if (dims == 0) return 0;
  const int64_t src_last = src.GetDim(dims - 1);
  const int64_t mask_last = mask.GetDimNum() == 0 ? src_last : mask.GetDim(mask.GetDimNum() - 1);
  return static_cast<uint64_t>(mask_last == src_last ? src.GetShapeSize() : src_last);
}

}  // namespace npusim::tiling

namespace AscendC {

/// src0Shape / src1Shape: the tensor's shape and {1} for the scalar (either order).
inline void GetSelectMaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                   const uint32_t /*srcTypeSize*/, const TensorShape& maskShape,
                                   const uint32_t maskTypeSize, const bool /*isReuseMask*/,
                                   uint32_t& maxValue, uint32_t& minValue) {
  using namespace npusim::tiling;
  const TensorShape& src = src0Shape.GetShapeSize() >= src1Shape.GetShapeSize() ? src0Shape
                                                                                 : src1Shape;
  const uint32_t per = (maskTypeSize <= 2 ? 2u : 4u) + 1u;
  const uint64_t row = mask_row(src, maskShape);
  maxValue = mask_pass_max(per, row);
  minValue = mask_pass_min(per, row);
}

inline uint32_t GetSelectMaxTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask) {
  uint32_t max = 0, min = 0;
  GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask,
                         max, min);
  return max;
}

inline uint32_t GetSelectMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape& maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask) {
  uint32_t max = 0, min = 0;
  GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask,
                         max, min);
  return min;
}

/// srcShape: the source's shape [firstAxis, srcLastAxis] (a third dimension, the mask's last
/// axis, may follow: rows are then the unit when it differs).
inline void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                    const bool /*isReuseSource*/, uint32_t& maxValue,
                                    uint32_t& minValue) {
  using namespace npusim::tiling;
  const size_t dims = srcShape.GetDimNum();
  uint64_t row = static_cast<uint64_t>(srcShape.GetShapeSize());
  if (dims == 3) {
    const uint64_t first = static_cast<uint64_t>(srcShape.GetDim(0));
    const uint64_t last = static_cast<uint64_t>(srcShape.GetDim(1));
    row = srcShape.GetDim(2) == srcShape.GetDim(1) ? first * last : last;
  }
  maxValue = mask_pass_max(3, row);
  minValue = mask_pass_min(3, row);
}

inline uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource) {
  uint32_t max = 0, min = 0;
  GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, max, min);
  return max;
}

inline uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource) {
  uint32_t max = 0, min = 0;
  GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, max, min);
  return min;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_FILTER_FILTER_TILING_H_
