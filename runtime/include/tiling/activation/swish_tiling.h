/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Swish and Silu (lib/activation/swish.h, silu.h): the space to
 * reserve for their framework-allocated temporary buffer. Float needs none (minValue 0) unless
 * the result overwrites the source (then 4 bytes per element: maxValue); half needs 8 bytes per
 * element (activation_tmp_size.h). isReuseSource does not change it.
 */
#ifndef NPUSIM_TILING_ACTIVATION_SWISH_TILING_H_
#define NPUSIM_TILING_ACTIVATION_SWISH_TILING_H_

#include <cstdint>

#include "tiling/activation/activation_tmp_size.h"

namespace AscendC {

inline void GetSwishTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                            const bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) {
  using namespace npusim::tiling;
  const uint32_t n = shape_elems(srcShape);
  maxValue = max_tmp(float_intermediates(typeSize), n);
  minValue = typeSize == 4 ? 0u : min_tmp(float_intermediates(typeSize), n);
}

inline void GetSiluTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  GetSwishTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_ACTIVATION_SWISH_TILING_H_
