/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling of TopK (lib/sort/topk.h): optiling::TopkTiling (the
 * BEGIN_TILING_DATA_DEF class of kernel_tiling/transform_tiling.h's TopkTiling, 33 words),
 * TopKTilingFunc that lays out the temporary buffer for rows of `inner` elements, and
 * GetTopKMaxMinTmpSize (that buffer's size, as both the minimum and the maximum). Per row the
 * buffer holds the scores (inner rounded up to 32: innerDataSize), the indices (int32), the
 * Sort32 structures and the merge buffer (8 bytes each per element) and the extracted values
 * and indices (k rounded up to 32), each part 32-byte aligned.
 */
#ifndef NPUSIM_TILING_SORT_TOPK_TILING_H_
#define NPUSIM_TILING_SORT_TOPK_TILING_H_

#include <cstdint>

#include "kernel_tiling/transform_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_data_def.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkTiling)
NPUSIM_TOPK_TILING_FIELDS(NPUSIM_TILING_U32_FIELD)
TILING_DATA_FIELD_DEF_ARR(uint32_t, NPUSIM_TOPK_TILING_RESERVED, reserved);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace npusim::tiling {

/// TopK's temporary layout (byte offsets) for rows of `inner` elements of `type_size` bytes.
struct TopkLayout {
  uint32_t inner_pad, score, index, sort, merge, value, ext_index, total;
};

inline TopkLayout topk_layout(uint32_t inner, uint32_t k, uint32_t type_size) {
  auto align32 = [](uint64_t v) { return static_cast<uint32_t>((v + 31) / 32 * 32); };
  TopkLayout l{};
  l.inner_pad = (inner + 31) / 32 * 32;
  const uint32_t k_pad = (k + 31) / 32 * 32;
  l.score = 0;
  l.index = l.score + align32(uint64_t{l.inner_pad} * type_size);
  l.sort = l.index + align32(uint64_t{l.inner_pad} * 4);
  l.merge = l.sort + align32(uint64_t{l.inner_pad} * 8);
  l.value = l.merge + align32(uint64_t{l.inner_pad} * 8);
  l.ext_index = l.value + align32(uint64_t{k_pad} * type_size);
  l.total = l.ext_index + align32(uint64_t{k_pad} * 4);
  return l;
}

}  // namespace npusim::tiling

namespace AscendC {

/// The temporary space of TopK over rows of `inner` elements (k does not change it beyond the
/// extracted part, which is sized for k = inner).
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                 const int32_t inner, const int32_t /*outter*/,
                                 const bool /*isReuseSource*/, const bool /*isInitIndex*/,
                                 TopKMode /*mode*/, const bool /*isLargest*/,
                                 const uint32_t dataTypeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  if (inner <= 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return false;
  const auto in = static_cast<uint32_t>(inner);
  maxValue = minValue = npusim::tiling::topk_layout(in, in, dataTypeSize).total;
  return true;
}

/// Fills TopK's tiling for rows of `inner` elements, `outter` rows, the k first.
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                           const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool isInitIndex, TopKMode mode,
                           const bool isLargest, optiling::TopkTiling& topKTiling) {
  if (inner <= 0 || outter <= 0 || k <= 0 || k > inner ||
      (dataTypeSize != 2 && dataTypeSize != 4))
    return false;
  const auto in = static_cast<uint32_t>(inner), kk = static_cast<uint32_t>(k);
  const npusim::tiling::TopkLayout l = npusim::tiling::topk_layout(in, in, dataTypeSize);
  topKTiling.set_tmpLocalSize(l.total);
  topKTiling.set_outter(static_cast<uint32_t>(outter));
  topKTiling.set_inner(in);
  topKTiling.set_innerDataSize(l.inner_pad);
  topKTiling.set_k(kk);
  topKTiling.set_kAlignValue((kk * dataTypeSize + 31) / 32 * 32 / dataTypeSize);
  topKTiling.set_kAlignIndex((kk + 7) / 8 * 8);
  topKTiling.set_sortRepeat(l.inner_pad / 32);
  topKTiling.set_typeSize(dataTypeSize);
  topKTiling.set_isLargest(isLargest ? 1 : 0);
  topKTiling.set_isInitIndex(isInitIndex ? 1 : 0);
  topKTiling.set_topkMode(static_cast<uint32_t>(mode));
  topKTiling.set_scoreOffset(l.score);
  topKTiling.set_indexOffset(l.index);
  topKTiling.set_sortOffset(l.sort);
  topKTiling.set_mergeOffset(l.merge);
  topKTiling.set_extractValueOffset(l.value);
  topKTiling.set_extractIndexOffset(l.ext_index);
  return true;
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_SORT_TOPK_TILING_H_
