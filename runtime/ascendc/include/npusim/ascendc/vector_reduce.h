// SPDX-License-Identifier: Apache-2.0
// Repeat-form reductions (V pipe) of the Ascend C twin, with the masks of vector_mask.h:
//   ReduceRepeat<SUM|MAX|MIN>   each repeat's active elements -> one result (MAX/MIN: value and
//        index in the repeat, as `order` says: ORDER_VALUE_INDEX / ORDER_INDEX_VALUE pairs, or
//        ORDER_ONLY_VALUE / ORDER_ONLY_INDEX alone), at dst + r * dstRepStride results;
//   ReduceDataBlock<...>        each 32-byte block of a repeat -> one result, 8 per repeat, at
//        dst + r * dstRepStride * 8 + block (blocks without an active element are not written);
//   ReducePairElem<...>         elements 2k, 2k+1 of a repeat -> one result, per / 2 per repeat,
//        at dst + r * dstRepStride * per / 2 + k (pairs without an active element not written);
//   ReduceMax / ReduceMin / ReduceSum (mask, repeatTime, srcRepStride): all active elements of
//        all repeats -> dst[0] (Max/Min with calIndex: the element's index r * per + e in dst[1]).
// An index is stored as the bits of the unsigned integer of T's size. Sums add in a binary tree
// (ReduceMax..: per repeat, then over the repeats' results), every partial sum rounded to T;
// Max/Min take the first extreme. ReduceSum (count form, vector_ops.h) also leaves its sum in the
// register GetReduceRepeatSumSpr reads.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_mask.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

enum class ReduceType : std::uint8_t { SUM = 0, MAX, MIN };

}  // namespace AscendC

namespace npusim::ascendc {

/// Where a reduction writes its results and how it reads its source.
struct ReduceShape {
  std::uint32_t dst_rep;
  std::uint32_t src_blk;
  std::uint32_t src_rep;
};

/// Stores `index` as the bits of T's unsigned integer at p.
template <class T>
NPUSIM_TWIN_FN void store_index(T* p, std::uint32_t index) {
  if constexpr (sizeof(T) == 2) {
    const auto v = static_cast<std::uint16_t>(index);
    __builtin_memcpy(p, &v, sizeof v);
  } else {
    __builtin_memcpy(p, &index, sizeof(T) < sizeof index ? sizeof(T) : sizeof index);
  }
}

/// Reduces v[0..n) (n >= 1); *at = the extreme's position (0 for SUM).
template <AscendC::ReduceType K, class T>
NPUSIM_TWIN_FN T reduce_values(const T* v, std::uint32_t n, std::uint32_t* at) {
  *at = 0;
  if constexpr (K == AscendC::ReduceType::SUM) {
    return pairwise_sum(v, n);
  } else {
    for (std::uint32_t i = 1; i < n; ++i) {
      if (K == AscendC::ReduceType::MAX ? v[i] > v[*at] : v[i] < v[*at]) *at = i;
    }
    return v[*at];
  }
}

/// Gathers the active elements e in [e0, e1) of repeat r: values into v, lane numbers into pos.
template <class T>
NPUSIM_TWIN_FN std::uint32_t gather_lanes(const Operand<T>& src, const Lanes& l, std::uint32_t r,
                                          std::uint32_t e0, std::uint32_t e1,
                                          const ReduceShape& s, T* v, std::uint32_t* pos) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  std::uint32_t n = 0;
  for (std::uint32_t e = e0; e < e1; ++e) {
    if (!l.on(r, e)) continue;
    v[n] = src.data[lane_index(r, e, s.src_blk, s.src_rep, kB)];
    pos[n++] = e;
  }
  return n;
}

template <AscendC::ReduceType K, class T>
NPUSIM_TWIN_FN void reduce_repeat_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                       const Lanes& l, const ReduceShape& s,
                                       AscendC::ReduceOrder order) {
  const char* name = "ReduceRepeat";
  const bool sum = K == AscendC::ReduceType::SUM;
  const bool pair = !sum && (order == AscendC::ReduceOrder::ORDER_VALUE_INDEX ||
                             order == AscendC::ReduceOrder::ORDER_INDEX_VALUE);
  const std::uint32_t unit = pair ? 2 : 1;
  check_lanes(src, l, s.src_blk, s.src_rep, name, "src");
  if (dst.data == nullptr) fail(name, "dst has no buffer");
  if (l.repeats > 0 && (l.repeats - 1ull) * s.dst_rep * unit + unit > dst.size)
    fail(name, "dst: %u results do not fit its %u elements", l.repeats, dst.size);
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    T v[256];
    std::uint32_t pos[256], at = 0;
    const std::uint32_t n = gather_lanes(src, l, r, 0, l.per, s, v, pos);
    if (n == 0) continue;
    const T x = reduce_values<K>(v, n, &at);
    T* d = dst.data + static_cast<std::uint64_t>(r) * s.dst_rep * unit;
    if (sum || order == AscendC::ReduceOrder::ORDER_ONLY_VALUE) {
      d[0] = x;
    } else if (order == AscendC::ReduceOrder::ORDER_ONLY_INDEX) {
      store_index(d, pos[at]);
    } else {
      const bool value_first = order == AscendC::ReduceOrder::ORDER_VALUE_INDEX;
      d[value_first ? 0 : 1] = x;
      store_index(d + (value_first ? 1 : 0), pos[at]);
    }
  }
  record_vector(ctx, sum ? Op::kReduceSum : K == AscendC::ReduceType::MAX ? Op::kReduceMax
                                                                           : Op::kReduceMin,
                dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(l.count()), sizeof(T),
                {{dst.slot, true}, {src.slot, false}});
}

/// ReduceDataBlock (group = elements per 32-byte block, out = 8) and ReducePairElem (group 2,
/// out = per / 2): each group of a repeat's active elements -> one result.
template <AscendC::ReduceType K, class T>
NPUSIM_TWIN_FN void reduce_groups_body(BlockContext& ctx, const char* name, Operand<T> dst,
                                       Operand<T> src, const Lanes& l, const ReduceShape& s,
                                       std::uint32_t group) {
  const std::uint32_t out = l.per / group;
  check_lanes(src, l, s.src_blk, s.src_rep, name, "src");
  if (dst.data == nullptr) fail(name, "dst has no buffer");
  if (l.repeats > 0 && (l.repeats - 1ull) * s.dst_rep * out + out > dst.size)
    fail(name, "dst: %u repeats of %u results do not fit its %u elements", l.repeats, out,
         dst.size);
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    for (std::uint32_t g = 0; g < out; ++g) {
      T v[16];
      std::uint32_t pos[16], at = 0;
      const std::uint32_t n = gather_lanes(src, l, r, g * group, (g + 1) * group, s, v, pos);
      if (n > 0) dst.data[static_cast<std::uint64_t>(r) * s.dst_rep * out + g] =
                     reduce_values<K>(v, n, &at);
    }
  }
  record_vector(ctx, K == AscendC::ReduceType::SUM   ? Op::kReduceSum
                     : K == AscendC::ReduceType::MAX ? Op::kReduceMax
                                                     : Op::kReduceMin,
                dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(l.count()), sizeof(T),
                {{dst.slot, true}, {src.slot, false}});
}

/// ReduceMax/Min/Sum over all lanes of all repeats (source block stride 1).
template <AscendC::ReduceType K, class T>
NPUSIM_TWIN_FN void reduce_all_body(BlockContext& ctx, const char* name, Operand<T> dst,
                                    Operand<T> src, std::int32_t tmp_slot, const Lanes& l,
                                    std::uint32_t src_rep, bool cal_index) {
  const ReduceShape s{0, 1, src_rep};
  check_lanes(src, l, 1, src_rep, name, "src");
  check_operand(dst, cal_index ? 2 : 1, name, "dst");
  if (l.repeats > 255) fail(name, "repeatTime %u is over 255", l.repeats);
  T best[255];
  std::uint32_t where[255], m = 0;
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    T v[256];
    std::uint32_t pos[256], at = 0;
    const std::uint32_t n = gather_lanes(src, l, r, 0, l.per, s, v, pos);
    if (n == 0) continue;
    best[m] = reduce_values<K>(v, n, &at);
    where[m++] = r * l.per + pos[at];
  }
  if (ctx.functional && m > 0) {
    std::uint32_t at = 0;
    dst.data[0] = reduce_values<K>(best, m, &at);
    if (cal_index && K != AscendC::ReduceType::SUM) store_index(dst.data + 1, where[at]);
  }
  record_vector(ctx, K == AscendC::ReduceType::SUM   ? Op::kReduceSum
                     : K == AscendC::ReduceType::MAX ? Op::kReduceMax
                                                     : Op::kReduceMin,
                dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(l.count()), sizeof(T),
                {{dst.slot, true}, {src.slot, false}, {tmp_slot, true}});
}

/// The lanes of a reduction called with a count mask or (bits non-null) a two-word mask.
template <class T>
Lanes reduce_lanes(BlockContext& ctx, bool set_mask, const std::uint64_t* bits,
                   std::int32_t mask, std::int32_t repeats, const char* name) {
  if (mask < 0 || repeats < 0) fail(name, "negative mask or repeatTime");
  return lanes_of(ctx, set_mask, bits, static_cast<std::uint64_t>(mask),
                  static_cast<std::uint32_t>(repeats), 256 / sizeof(T), name);
}

inline ReduceShape reduce_shape(const char* name, std::int32_t dst_rep, std::int32_t src_blk,
                                std::int32_t src_rep) {
  if (dst_rep < 0 || src_blk < 0 || src_rep < 0) fail(name, "negative stride");
  return {static_cast<std::uint32_t>(dst_rep), static_cast<std::uint32_t>(src_blk),
          static_cast<std::uint32_t>(src_rep)};
}

template <AscendC::ReduceType K, class T>
void reduce_repeat(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   bool set_mask, const std::uint64_t* bits, std::int32_t mask,
                   std::int32_t repeats, std::int32_t dst_rep, std::int32_t src_blk,
                   std::int32_t src_rep, AscendC::ReduceOrder order) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Lanes l = reduce_lanes<T>(ctx, set_mask, bits, mask, repeats, "ReduceRepeat");
  reduce_repeat_body<K, T>(ctx, operand(dst), operand(src), l,
                           reduce_shape("ReduceRepeat", dst_rep, src_blk, src_rep), order);
}

template <AscendC::ReduceType K, class T>
void reduce_groups(const char* name, std::uint32_t group, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src, bool set_mask, const std::uint64_t* bits,
                   std::int32_t mask, std::int32_t repeats, std::int32_t dst_rep,
                   std::int32_t src_blk, std::int32_t src_rep) {
  static_assert(sizeof(T) >= 2, "ReduceDataBlock/ReducePairElem take 2- or 4-byte types");
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Lanes l = reduce_lanes<T>(ctx, set_mask, bits, mask, repeats, name);
  reduce_groups_body<K, T>(ctx, name, operand(dst), operand(src), l,
                           reduce_shape(name, dst_rep, src_blk, src_rep), group);
}

template <AscendC::ReduceType K, class T>
void reduce_all(const char* name, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& tmp,
                const std::uint64_t* bits, std::int32_t mask, std::int32_t repeats,
                std::int32_t src_rep, bool cal_index) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Lanes l = reduce_lanes<T>(ctx, true, bits, mask, repeats, name);
  if (src_rep < 0) fail(name, "negative srcRepStride");
  reduce_all_body<K, T>(ctx, name, operand(dst), operand(src), tmp.twin_slot(), l,
                        static_cast<std::uint32_t>(src_rep), cal_index);
}

}  // namespace npusim::ascendc

namespace AscendC {

// MASK is the mask parameter's type: a count (int32_t) or the two-word form (const uint64_t[]).
#define NPUSIM_REDUCE_FORMS(MASK, BITS, COUNT)                                                     \
  template <ReduceType kType, class T, class U = T, bool kSetMask = true>                          \
  inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK mask,        \
                           const std::int32_t repeatTime, const std::int32_t dstRepStride,         \
                           const std::int32_t srcBlkStride, const std::int32_t srcRepStride,       \
                           ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {                   \
    static_assert(std::is_same_v<T, U>, "ReduceRepeat: dst and src types must match");            \
    npusim::ascendc::reduce_repeat<kType, T>(dst, src, kSetMask, BITS, COUNT, repeatTime,          \
                                             dstRepStride, srcBlkStride, srcRepStride, order);     \
  }                                                                                                \
  template <ReduceType kType, class T, class U = T, bool kSetMask = true>                          \
  inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK mask,     \
                              const std::int32_t repeatTime, const std::int32_t dstRepStride,      \
                              const std::int32_t srcBlkStride, const std::int32_t srcRepStride) {  \
    static_assert(std::is_same_v<T, U>, "ReduceDataBlock: dst and src types must match");         \
    npusim::ascendc::reduce_groups<kType, T>("ReduceDataBlock", 32 / sizeof(T), dst, src,          \
                                             kSetMask, BITS, COUNT, repeatTime, dstRepStride,      \
                                             srcBlkStride, srcRepStride);                          \
  }                                                                                                \
  template <ReduceType kType, class T, class U = T, bool kSetMask = true>                          \
  inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASK mask,      \
                             const std::int32_t repeatTime, const std::int32_t dstRepStride,       \
                             const std::int32_t srcBlkStride, const std::int32_t srcRepStride) {   \
    static_assert(std::is_same_v<T, U>, "ReducePairElem: dst and src types must match");          \
    npusim::ascendc::reduce_groups<kType, T>("ReducePairElem", 2, dst, src, kSetMask, BITS,        \
                                             COUNT, repeatTime, dstRepStride, srcBlkStride,        \
                                             srcRepStride);                                        \
  }                                                                                                \
  template <class T>                                                                               \
  inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,                      \
                        const LocalTensor<T>& sharedTmpBuffer, MASK mask,                          \
                        const std::int32_t repeatTime, const std::int32_t srcRepStride,            \
                        bool calIndex = false) {                                                   \
    npusim::ascendc::reduce_all<ReduceType::MAX, T>("ReduceMax", dst, src, sharedTmpBuffer, BITS,  \
                                                    COUNT, repeatTime, srcRepStride, calIndex);    \
  }                                                                                                \
  template <class T>                                                                               \
  inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,                      \
                        const LocalTensor<T>& sharedTmpBuffer, MASK mask,                          \
                        const std::int32_t repeatTime, const std::int32_t srcRepStride,            \
                        bool calIndex = false) {                                                   \
    npusim::ascendc::reduce_all<ReduceType::MIN, T>("ReduceMin", dst, src, sharedTmpBuffer, BITS,  \
                                                    COUNT, repeatTime, srcRepStride, calIndex);    \
  }                                                                                                \
  template <class T>                                                                               \
  inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,                      \
                        const LocalTensor<T>& sharedTmpBuffer, MASK mask,                          \
                        const std::int32_t repeatTime, const std::int32_t srcRepStride) {          \
    npusim::ascendc::reduce_all<ReduceType::SUM, T>("ReduceSum", dst, src, sharedTmpBuffer, BITS,  \
                                                    COUNT, repeatTime, srcRepStride, false);       \
  }
NPUSIM_REDUCE_FORMS(const std::int32_t, nullptr, mask)
NPUSIM_REDUCE_FORMS(const std::uint64_t*, mask, 0)
#undef NPUSIM_REDUCE_FORMS

/// The sum the block's last count-form ReduceSum computed (its repeat-sum register).
template <class T>
inline T GetReduceRepeatSumSpr() {
  return static_cast<T>(static_cast<float>(npusim::ascendc::block().regs.reduce_sum));
}

}  // namespace AscendC
