/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Xor (lib/math/xor.h): 2 bytes per element (typeSize): the
 * temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_XOR_TILING_H_
#define NPUSIM_TILING_MATH_XOR_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

inline void GetXorMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                const bool /*isReuseSource*/, uint32_t& maxValue,
                                uint32_t& minValue) {
  npusim::tiling::elementwise_tmp(typeSize, npusim::tiling::shape_elems(srcShape), maxValue,
                                  minValue);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_XOR_TILING_H_
