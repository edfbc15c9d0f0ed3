/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's temporary-space rule of the twin's math APIs (lib/math), host side: an element-wise
 * API needing B bytes per element uses at most B x elements and at least B x 64 elements (all of
 * them when fewer), rounded up to 32 bytes (activation_tmp_size.h, the kernel side's
 * npusim/ascendc/high_level_tmp.h passes). NPUSIM_MATH_TMP_SIZE(Api, F, H) defines
 * Get<Api>MaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) for an API needing
 * F bytes per element for float (typeSize 4) and H for half (typeSize 2).
 */
#ifndef NPUSIM_TILING_MATH_MATH_TMP_SIZE_H_
#define NPUSIM_TILING_MATH_MATH_TMP_SIZE_H_

#include <cstdint>

#include "tiling/activation/activation_tmp_size.h"

namespace npusim::tiling {

inline void elementwise_tmp(uint32_t bytes_per_elem, uint32_t elems, uint32_t& max_value,
                            uint32_t& min_value) {
  max_value = max_tmp(bytes_per_elem, elems);
  min_value = min_tmp(bytes_per_elem, elems);
}

}  // namespace npusim::tiling

#define NPUSIM_MATH_TMP_SIZE(API, FLOAT_BYTES, HALF_BYTES)                                      \
  inline void Get##API##MaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,    \
                                      const bool /*isReuseSource*/, uint32_t& maxValue,        \
                                      uint32_t& minValue) {                                    \
    npusim::tiling::elementwise_tmp(typeSize == 4 ? (FLOAT_BYTES) : (HALF_BYTES),              \
                                    npusim::tiling::shape_elems(srcShape), maxValue, minValue); \
  }

#endif  // NPUSIM_TILING_MATH_MATH_TMP_SIZE_H_
