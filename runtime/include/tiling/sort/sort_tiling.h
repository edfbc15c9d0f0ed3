/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling of the sort high-level APIs (lib/sort/sort.h): the temporary space.
 * The twin's full sort merges the Sort32 groups with MrgSort, every other round into the
 * temporary tensor: 8 bytes per element (the count rounded up to 32), both as the minimum and
 * the maximum. Concat needs none (Sort32 reads the scores directly).
 * SortConfig / SortType / TensorDataType describe the call as CANN's GetSortMaxMinTmpSize takes
 * it; the twin's answer does not depend on them.
 */
#ifndef NPUSIM_TILING_SORT_SORT_TILING_H_
#define NPUSIM_TILING_SORT_SORT_TILING_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tensor_shape.h"
#include "kernel_tiling/ascendc_types.h"

namespace AscendC {

enum class SortType : int32_t { RADIX_SORT = 0, MERGE_SORT = 1 };

struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
};

}  // namespace AscendC

namespace npusim::tiling {

/// Bytes of the merge buffer for `count` elements (rounded up to Sort32's groups of 32).
inline uint32_t sort_merge_bytes(uint64_t count) {
  return static_cast<uint32_t>((count + 31) / 32 * 32 * 8);
}

}  // namespace npusim::tiling

namespace AscendC {

inline void GetSortMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType /*valueType*/,
                                 const TensorDataType /*indexType*/, const bool /*isReuseSource*/,
                                 const SortConfig& /*config*/, uint32_t& maxValue,
                                 uint32_t& minValue) {
  const int64_t n = srcShape.GetShapeSize();
  maxValue = minValue = npusim::tiling::sort_merge_bytes(n > 0 ? static_cast<uint64_t>(n) : 0);
}

inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                               const uint32_t elemCount, const uint32_t /*dataTypeSize*/) {
  return npusim::tiling::sort_merge_bytes(elemCount);
}

inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                 const uint32_t /*elemCount*/, const uint32_t /*dataTypeSize*/) {
  return 0;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_SORT_SORT_TILING_H_
