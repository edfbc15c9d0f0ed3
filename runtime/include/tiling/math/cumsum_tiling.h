/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of CumSum (lib/math/cumsum.h): the temporary space (all of it at
 * once, no passes: maxValue = minValue). First axis: float none, half two float rows (8 x inner
 * bytes, inner the last dimension of srcShape, outter the product of the others). Last axis: 12
 * bytes per element of gather offsets and two transposed copies of the matrix, and for half two
 * float rows of outter elements.
 */
#ifndef NPUSIM_TILING_MATH_CUMSUM_TILING_H_
#define NPUSIM_TILING_MATH_CUMSUM_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

inline void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                   const bool isLastAxis, const bool /*isReuseSource*/,
                                   uint32_t& maxValue, uint32_t& minValue) {
  const uint32_t elems = npusim::tiling::shape_elems(srcShape);
  const size_t dims = srcShape.GetDimNum();
  const int64_t last = dims == 0 ? 0 : srcShape.GetDim(dims - 1);
  const uint32_t inner = last > 0 ? static_cast<uint32_t>(last) : 0u;
  const uint32_t outter = inner == 0 ? 0u : elems / inner;
  const uint32_t half_rows = typeSize == 4 ? 0u : 8u;  // two float rows of the summed axis
  maxValue = isLastAxis ? elems * (12 + 2 * typeSize) + half_rows * outter : half_rows * inner;
  minValue = maxValue;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_CUMSUM_TILING_H_
