// SPDX-License-Identifier: Apache-2.0
// The sort high-level APIs of the Ascend C twin (dav-2201 forms, half / float scores), on the
// 8-byte (score, uint32 index) structures of vector_sort.h:
//   Concat(concat, src, tmp, repeatTime)   prepares the scores for Sort: on this architecture
//       Sort32 reads the scores themselves, so concat becomes src (no instruction);
//   Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)   Sort32 of repeatTime x 32
//       (score, index) pairs into dst, descending per 32; with isFullSort the sorted groups are
//       then merged into one descending sequence (equal scores keep their input order), tmp
//       (repeatTime x 32 structures) holding every other merge round;
//   Extract(dstValue, dstIndex, sorted, repeatTime)   the scores and the indices of
//       repeatTime x 32 structures, each packed;
//   GetSortLen<T>(n) / GetSortOffset<T>(i)   bytes of n structures / byte offset of the i-th.
// Timing (vector pipe): Sort32 once; the merge rounds are MrgSort instructions of up to four
// queues (queues of 32, 128, 512, ... structures, one instruction per round and 255 groups; a
// lone tail queue is moved with Copy); Extract is two GatherMask instructions.
// Host side: tiling/sort/sort_tiling.h (GetSortMaxMinTmpSize, GetSortTmpSize, GetConcatTmpSize).
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_copy.h"
#include "npusim/ascendc/matmul_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_sort.h"

namespace npusim::ascendc {

template <class T>
constexpr std::uint32_t kSortElems = kSortStruct / sizeof(T);  // T elements per structure

/// Merges the `len`-structure queues of `cur` (total structures) in groups of four into `nxt`.
template <class T>
void merge_round(const AscendC::LocalTensor<T>& nxt, const AscendC::LocalTensor<T>& cur,
                 std::uint32_t total, std::uint32_t len) {
  constexpr std::uint32_t w = kSortElems<T>;
  const std::uint32_t group = 4 * len;
  std::uint32_t at = 0;
  for (std::uint32_t full = total / group; full > 0;) {
    const std::uint32_t reps = full < 255 ? full : 255;
    const auto l16 = static_cast<std::uint16_t>(len);
    const std::uint16_t lens[4] = {l16, l16, l16, l16};
    const AscendC::MrgSortSrcList<T> q(cur[at * w], cur[(at + len) * w], cur[(at + 2 * len) * w],
                                       cur[(at + 3 * len) * w]);
    AscendC::MrgSort(nxt[at * w], q,
                     AscendC::MrgSort4Info(lens, false, 0xF, static_cast<std::uint16_t>(reps)));
    at += reps * group;
    full -= reps;
  }
  const std::uint32_t rem = total - at;
  if (rem == 0) return;
  if (rem <= len) {  // one queue left: already in order
    ub_copy(nxt[at * w], cur[at * w], rem * w);
    return;
  }
  std::uint16_t lens[4] = {0, 0, 0, 0};
  AscendC::LocalTensor<T> src[4] = {cur[at * w], cur[at * w], cur[at * w], cur[at * w]};
  std::uint16_t valid = 0;
  for (std::uint32_t i = 0, left = rem; left > 0; ++i) {
    const std::uint32_t l = left < len ? left : len;
    lens[i] = static_cast<std::uint16_t>(l);
    src[i] = cur[(at + i * len) * w];
    valid = static_cast<std::uint16_t>(valid | (1u << i));
    left -= l;
  }
  AscendC::MrgSort(nxt[at * w], AscendC::MrgSortSrcList<T>(src[0], src[1], src[2], src[3]),
                   AscendC::MrgSort4Info(lens, false, valid, 1));
}

/// Merges the sorted 32-structure groups of `buf` (total structures) into one descending
/// sequence in `buf`, using `tmp` (at least as large) for every other round.
template <class T>
void merge_sorted_groups(const AscendC::LocalTensor<T>& buf, const AscendC::LocalTensor<T>& tmp,
                         std::uint32_t total, const char* api) {
  constexpr std::uint32_t w = kSortElems<T>;
  if (total <= 32) return;
  if (tmp.GetSize() < total * w)
    fail(api, "the temporary tensor holds %u bytes, the merge needs %u (%u structures of 8)",
         static_cast<unsigned>(tmp.GetSize() * sizeof(T)), total * kSortStruct, total);
  const AscendC::LocalTensor<T>* cur = &buf;
  const AscendC::LocalTensor<T>* nxt = &tmp;
  for (std::uint32_t len = 32; len < total; len *= 4) {
    merge_round(*nxt, *cur, total, len);
    const AscendC::LocalTensor<T>* t = cur;
    cur = nxt;
    nxt = t;
  }
  if (cur != &buf) ub_copy(buf, *cur, total * w);
}

/// Scores and indices of `repeats` x 32 structures (GatherMask of the even / odd words; for
/// half, the first of each four halves).
template <class T>
void extract_sorted(const AscendC::LocalTensor<T>& value,
                    const AscendC::LocalTensor<std::uint32_t>& index,
                    const AscendC::LocalTensor<T>& sorted, std::uint32_t repeats) {
  std::uint64_t kept = 0;
  const AscendC::GatherMaskParams p(1, static_cast<std::uint16_t>(repeats), 8, 0);
  AscendC::GatherMask(value, sorted, std::is_same_v<T, float> ? 1 : 3, false, 0, p, kept);
  AscendC::GatherMask(index, sorted.template ReinterpretCast<std::uint32_t>(), 2, false, 0, p,
                      kept);
}

template <class T>
void check_sort_type(const char* api) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>, "sort APIs: half and float");
  (void)api;
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T>
inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src,
                   const LocalTensor<T>& /*tmp*/, const std::int32_t repeatTime) {
  npusim::ascendc::check_sort_type<T>("Concat");
  if (repeatTime < 0 || static_cast<std::uint32_t>(repeatTime) * 16 > src.GetSize())
    npusim::ascendc::fail("Concat", "repeatTime %d (16 elements each) beyond the %u-element source",
                          repeatTime, src.GetSize());
  concat = src;
}

template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat,
                 const LocalTensor<std::uint32_t>& index, const LocalTensor<T>& tmp,
                 const std::int32_t repeatTime) {
  npusim::ascendc::check_sort_type<T>("Sort");
  if (repeatTime < 0) npusim::ascendc::fail("Sort", "negative repeatTime %d", repeatTime);
  Sort32(dst, concat, index, repeatTime);
  if constexpr (isFullSort) {
    npusim::ascendc::merge_sorted_groups(dst, tmp, static_cast<std::uint32_t>(repeatTime) * 32,
                                         "Sort");
  }
}

template <typename T>
inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<std::uint32_t>& dstIndex,
                    const LocalTensor<T>& sorted, const std::int32_t repeatTime) {
  npusim::ascendc::check_sort_type<T>("Extract");
  if (repeatTime < 0) npusim::ascendc::fail("Extract", "negative repeatTime %d", repeatTime);
  npusim::ascendc::extract_sorted(dstValue, dstIndex, sorted,
                                  static_cast<std::uint32_t>(repeatTime));
}

template <typename T>
inline std::uint32_t GetSortLen(const std::uint32_t elemCount) {
  return elemCount * npusim::ascendc::kSortStruct;
}

template <typename T>
inline std::uint32_t GetSortOffset(const std::uint32_t elemOffset) {
  return elemOffset * npusim::ascendc::kSortStruct;
}

}  // namespace AscendC
