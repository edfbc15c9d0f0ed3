/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's temporary-space rule of the twin's activation APIs, host side: an API needing B bytes
 * per element uses at most B x elements (rounded up to 32 bytes) and at least B x 64 elements
 * (B x all of them when fewer), the kernel side's npusim/ascendc/high_level_tmp.h passes.
 */
#ifndef NPUSIM_TILING_ACTIVATION_TMP_SIZE_H_
#define NPUSIM_TILING_ACTIVATION_TMP_SIZE_H_

#include <cstdint>

#include "tiling/tensor_shape.h"

namespace npusim::tiling {

inline uint32_t shape_elems(const ge::Shape& shape) {
  const int64_t n = shape.GetShapeSize();
  return n > 0 && n <= int64_t{0xFFFFFFFF} ? static_cast<uint32_t>(n) : 0u;
}

inline uint32_t max_tmp(uint32_t bytes_per_elem, uint32_t elems) {
  return static_cast<uint32_t>((uint64_t{elems} * bytes_per_elem + 31) / 32 * 32);
}

inline uint32_t min_tmp(uint32_t bytes_per_elem, uint32_t elems) {
  return max_tmp(bytes_per_elem, elems < 64 ? elems : 64);
}

/// Bytes per element of Gelu and Sigmoid: one float intermediate for float, two for half.
inline uint32_t float_intermediates(uint32_t type_size) { return type_size == 4 ? 4u : 8u; }

}  // namespace npusim::tiling

#endif  // NPUSIM_TILING_ACTIVATION_TMP_SIZE_H_
