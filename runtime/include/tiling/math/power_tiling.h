/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Power (lib/math/power.h): 36 bytes per element of the larger
 * operand, whatever the form and type: the temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_POWER_TILING_H_
#define NPUSIM_TILING_MATH_POWER_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

inline void GetPowerMaxMinTmpSize(const TensorShape& srcShape1, const TensorShape& srcShape2,
                                  const bool /*typeIsInt*/, const uint32_t /*typeSize*/,
                                  const bool /*isReuseSource*/, uint32_t& maxValue,
                                  uint32_t& minValue) {
  const uint32_t a = npusim::tiling::shape_elems(srcShape1);
  const uint32_t b = npusim::tiling::shape_elems(srcShape2);
  npusim::tiling::elementwise_tmp(36, a > b ? a : b, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_POWER_TILING_H_
