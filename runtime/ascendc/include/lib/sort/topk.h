// SPDX-License-Identifier: Apache-2.0
// The TopK high-level API of the Ascend C twin (half / float values, int32 indices):
//   TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValue, dstIndex, src, srcIndex,
//        finish, [tmp,] k, tiling, TopKInfo{outter, inner, n}, isLargest)
// For each of the `outter` rows of `inner` elements (the first n valid), the k largest values
// (isLargest; else the k smallest) in order, with their indices, go to row r of dstValue (pitch
// k rounded up to 32 bytes) and of dstIndex (pitch k rounded up to 8); the elements after the
// k-th of each output row are left as they were. Equal values keep their input order. The
// indices are 0..inner-1 (isInitIndex false) or srcIndex's: one row for all rows (TOPK_NORMAL)
// or one per row (TOPK_NSMALL). With isHasfinish, a row whose finish flag is true gets n for
// its k indices.
// Timing (vector pipe), per row: a Copy (or Muls by -1 for the smallest) of the row into the
// temporary buffer, a Duplicate of -inf over the invalid tail, Sort32 and the MrgSort rounds of
// lib/sort/sort.h, two GatherMask, a Muls back for the smallest, Copy of the k values and
// indices (a Duplicate for a finished row); once: CreateVecIndex (or a Copy of srcIndex). The
// temporary buffer's layout comes from the tiling (TopKTilingFunc, tiling/sort/topk_tiling.h);
// the framework form takes tmpLocalSize bytes of free UB.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernel_tiling/transform_tiling.h"
#include "lib/sort/sort.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/vector_basic.h"

namespace AscendC {

struct TopKInfo {
  std::int32_t outter = 1;
  std::int32_t inner = 0;
  std::int32_t n = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// The parts of TopK's temporary buffer (from the tiling's byte offsets).
template <class T>
struct TopkParts {
  AscendC::LocalTensor<T> score, sorted, merge, value;
  AscendC::LocalTensor<std::int32_t> index;
  AscendC::LocalTensor<std::uint32_t> ext_index;
};

template <class T>
TopkParts<T> topk_parts(const HighLevelTmp& tmp, const TopkTiling& t) {
  if (tmp.bytes() < t.tmpLocalSize)
    fail("TopK", "the temporary buffer has %u bytes, the tiling needs %u (GetTopKMaxMinTmpSize)",
         tmp.bytes(), t.tmpLocalSize);
  return TopkParts<T>{tmp.as<T>(t.scoreOffset / sizeof(T)), tmp.as<T>(t.sortOffset / sizeof(T)),
                      tmp.as<T>(t.mergeOffset / sizeof(T)),
                      tmp.as<T>(t.extractValueOffset / sizeof(T)),
                      tmp.as<std::int32_t>(t.indexOffset / 4),
                      tmp.as<std::uint32_t>(t.extractIndexOffset / 4)};
}

inline void check_topk_tiling(const TopkTiling& t, std::int32_t k, const AscendC::TopKInfo& info,
                              std::uint32_t type_size) {
  if (info.outter <= 0 || info.inner <= 0 || info.n <= 0 || info.n > info.inner)
    fail("TopK", "TopKInfo {outter %d, inner %d, n %d} needs 0 < n <= inner", info.outter,
         info.inner, info.n);
  if (k <= 0 || k > info.n) fail("TopK", "k %d is not in 1..n (%d)", k, info.n);
  if (t.typeSize != type_size || t.inner != static_cast<std::uint32_t>(info.inner) ||
      t.k != static_cast<std::uint32_t>(k) || t.tmpLocalSize == 0)
    fail("TopK", "the tiling (inner %u, k %u, %u-byte values) is not for this call (inner %d, k "
         "%d, %u-byte values): call TopKTilingFunc", t.inner, t.k, t.typeSize, info.inner, k,
         type_size);
}

/// One row: the sorted scores of src_row (negated for the smallest) into parts.sorted, then the
/// first k values and indices to dst_value / dst_index.
template <class T>
void topk_row(const AscendC::LocalTensor<T>& dst_value,
              const AscendC::LocalTensor<std::int32_t>& dst_index,
              const AscendC::LocalTensor<T>& src_row, const TopkParts<T>& p, const TopkTiling& t,
              std::uint32_t n, bool largest) {
  const std::uint32_t pad = t.innerDataSize, k = t.k;
  if (largest) {
    ub_copy(p.score, src_row, n);
  } else {
    AscendC::Muls(p.score, src_row, static_cast<T>(-1.0f), static_cast<std::int32_t>(n));
  }
  if (pad > n)
    AscendC::Duplicate(p.score[n], static_cast<T>(-std::numeric_limits<float>::infinity()),
                       static_cast<std::int32_t>(pad - n));
  AscendC::Sort32(p.sorted, p.score, p.index.template ReinterpretCast<std::uint32_t>(),
                  static_cast<std::int32_t>(t.sortRepeat));
  merge_sorted_groups(p.sorted, p.merge, pad, "TopK");
  extract_sorted(p.value, p.ext_index, p.sorted, (k + 31) / 32);
  if (!largest)
    AscendC::Muls(p.value, p.value, static_cast<T>(-1.0f), static_cast<std::int32_t>(k));
  ub_copy(dst_value, p.value, k);
  ub_copy(dst_index, p.ext_index.template ReinterpretCast<std::int32_t>(), k);
}

template <class T, bool kInitIndex, bool kHasFinish, AscendC::TopKMode kMode>
void topk(const AscendC::LocalTensor<T>& dst_value,
          const AscendC::LocalTensor<std::int32_t>& dst_index,
          const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<std::int32_t>& src_index,
          const AscendC::LocalTensor<bool>& finish, const HighLevelTmp& tmp, std::int32_t k,
          const TopkTiling& t, const AscendC::TopKInfo& info, bool largest) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>, "TopK: half and float");
  check_topk_tiling(t, k, info, sizeof(T));
  const TopkParts<T> p = topk_parts<T>(tmp, t);
  const auto inner = static_cast<std::uint32_t>(info.inner), n = static_cast<std::uint32_t>(info.n);
  if constexpr (!kInitIndex) {
    AscendC::CreateVecIndex(p.index, 0, t.innerDataSize);
  } else if constexpr (kMode == AscendC::TopKMode::TOPK_NORMAL) {
    ub_copy(p.index, src_index, inner);
  }
  for (std::uint32_t r = 0; r < static_cast<std::uint32_t>(info.outter); ++r) {
    if constexpr (kInitIndex && kMode == AscendC::TopKMode::TOPK_NSMALL)
      ub_copy(p.index, src_index[r * inner], inner);
    const auto out_index = dst_index[r * t.kAlignIndex];
    topk_row(dst_value[r * t.kAlignValue], out_index, src[r * inner], p, t, n, largest);
    if constexpr (kHasFinish) {
      if (finish.GetValue(r))
        AscendC::Duplicate(out_index, static_cast<std::int32_t>(n), k);
    }
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
inline void TopK(const LocalTensor<T>& dstValueLocal,
                 const LocalTensor<std::int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<std::int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const LocalTensor<std::uint8_t>& tmpLocal,
                 const std::int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
                 const bool isLargest = true) {
  const npusim::ascendc::HighLevelTmp tmp(tmpLocal);
  npusim::ascendc::topk<T, isInitIndex, isHasfinish, topkMode>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, tmp, k, tilling,
      topKInfo, isLargest);
}

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
inline void TopK(const LocalTensor<T>& dstValueLocal,
                 const LocalTensor<std::int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<std::int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const std::int32_t k,
                 const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) {
  const npusim::ascendc::HighLevelTmp tmp("TopK", "GetTopKMaxMinTmpSize", tilling.tmpLocalSize,
                                          tilling.tmpLocalSize);
  npusim::ascendc::topk<T, isInitIndex, isHasfinish, topkMode>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, tmp, k, tilling,
      topKInfo, isLargest);
}

}  // namespace AscendC
