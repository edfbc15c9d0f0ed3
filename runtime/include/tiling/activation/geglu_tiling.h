/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling function of GeGLU (lib/activation/geglu.h): the temporary space range.
 * Float needs 4 bytes per element, half 8 (activation_tmp_size.h); isReuseSource does not
 * change it.
 */
#ifndef NPUSIM_TILING_ACTIVATION_GEGLU_TILING_H_
#define NPUSIM_TILING_ACTIVATION_GEGLU_TILING_H_

#include <cstdint>

#include "tiling/activation/activation_tmp_size.h"

namespace AscendC {

inline void GetGeGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                  const bool /*isReuseSource*/, uint32_t& maxValue,
                                  uint32_t& minValue) {
  using namespace npusim::tiling;
  maxValue = max_tmp(float_intermediates(typeSize), shape_elems(srcShape));
  minValue = min_tmp(float_intermediates(typeSize), shape_elems(srcShape));
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_ACTIVATION_GEGLU_TILING_H_
