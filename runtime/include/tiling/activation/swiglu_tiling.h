/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling function of SwiGLU (lib/activation/swiglu.h): the temporary space range.
 * Float needs none (the result tensor holds the intermediate), half 8 bytes per element (its
 * operands in float, activation_tmp_size.h); isReuseSource does not change it.
 */
#ifndef NPUSIM_TILING_ACTIVATION_SWIGLU_TILING_H_
#define NPUSIM_TILING_ACTIVATION_SWIGLU_TILING_H_

#include <cstdint>

#include "tiling/activation/activation_tmp_size.h"

namespace AscendC {

inline void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                   uint32_t& maxValue, uint32_t& minValue,
                                   const bool /*isReuseSource*/) {
  using namespace npusim::tiling;
  const uint32_t n = shape_elems(srcShape);
  maxValue = typeSize == 4 ? 0u : max_tmp(float_intermediates(typeSize), n);
  minValue = typeSize == 4 ? 0u : min_tmp(float_intermediates(typeSize), n);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_ACTIVATION_SWIGLU_TILING_H_
