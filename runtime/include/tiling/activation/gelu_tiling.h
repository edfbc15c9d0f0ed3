/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Gelu (lib/activation/gelu.h): the temporary space range.
 * Float needs 4 bytes per element, half 8 (activation_tmp_size.h).
 */
#ifndef NPUSIM_TILING_ACTIVATION_GELU_TILING_H_
#define NPUSIM_TILING_ACTIVATION_GELU_TILING_H_

#include <cstdint>

#include "tiling/activation/activation_tmp_size.h"

namespace AscendC {

inline uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
  using namespace npusim::tiling;
  return max_tmp(float_intermediates(typeSize), shape_elems(srcShape));
}

inline uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
  using namespace npusim::tiling;
  return min_tmp(float_intermediates(typeSize), shape_elems(srcShape));
}

inline void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
  maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
  minValue = GetGeluMinTmpSize(srcShape, typeSize);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_ACTIVATION_GELU_TILING_H_
