/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of WelfordUpdate and WelfordFinalize
 * (lib/normalization/welford.h): WelfordUpdate, srcShape {rnLength, abLength}, two float vectors
 * of abLength (each rounded up to 32 bytes); WelfordFinalize, srcShape {abLength}, the same plus
 * 32 bytes. The space does not depend on a pass split: maxValue = minValue.
 */
#ifndef NPUSIM_TILING_NORMALIZATION_WELFORD_TILING_H_
#define NPUSIM_TILING_NORMALIZATION_WELFORD_TILING_H_

#include <cstdint>

#include "tiling/normalization/norm_tiling_data.h"
#include "tiling/tensor_shape.h"

namespace npusim::tiling::norm {

inline uint32_t two_float_vectors(uint32_t n) { return 2 * ((n + 7) / 8 * 8) * 4; }

}  // namespace npusim::tiling::norm

namespace AscendC {

inline void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSizeT*/,
                                          const uint32_t /*typeSizeU*/,
                                          const bool /*isReuseSource*/, const bool /*isInplace*/,
                                          uint32_t& maxValue, uint32_t& minValue) {
  using namespace npusim::tiling::norm;
  const uint32_t ab = srcShape.GetDimNum() > 1 ? dim32(srcShape, 1) : dim32(srcShape, 0);
  maxValue = minValue = two_float_vectors(ab);
}

inline void GetWelfordFinalizeMaxMinTmpSize(const TensorShape& srcShape,
                                            const uint32_t /*typeSize*/,
                                            const bool /*isReuseSource*/, uint32_t& maxValue,
                                            uint32_t& minValue) {
  using namespace npusim::tiling::norm;
  const uint32_t ab = dim32(srcShape, srcShape.GetDimNum() == 0 ? 0 : srcShape.GetDimNum() - 1);
  maxValue = minValue = two_float_vectors(ab) + 32;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_NORMALIZATION_WELFORD_TILING_H_
