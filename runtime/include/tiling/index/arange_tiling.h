/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Arange (lib/index/arange.h): it needs no temporary space.
 * GetArithProgressionMaxMinTmpSize is the older name.
 */
#ifndef NPUSIM_TILING_INDEX_ARANGE_TILING_H_
#define NPUSIM_TILING_INDEX_ARANGE_TILING_H_

#include <cstdint>

namespace AscendC {

inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
}

inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  GetArangeMaxMinTmpSize(maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_INDEX_ARANGE_TILING_H_
