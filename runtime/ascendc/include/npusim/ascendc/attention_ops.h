// SPDX-License-Identifier: Apache-2.0
// Repeat-form vector ops of the Ascend C twin (the level-0 API the fused attention kernel uses
// for row-wise softmax work): binary ops with BinaryRepeatParams, WholeReduceMax/WholeReduceSum
// and Brcb. Each call records one V instruction (count = elements processed, bytes = count x
// element size, as the count-form ops do).
//
// Addressing (all strides in 32-byte blocks unless noted; elements per block B = 32 / sizeof(T)):
//  - binary ops: `mask` (count mode: the first `mask` elements of every repeat, at most 256 bytes)
//    over `repeatTimes` repeats (isSetMask = false: the mask register, vector_mask.h); element e of
//    repeat r of operand X is at X + r * xRepStride * B + (e / B) * xBlkStride * B + e % B. A
//    block stride of 0 reuses one block for the whole repeat (how a per-row value from Brcb is
//    applied to a row).
//    Every repeat reads its sources before writing its destination.
//  - WholeReduceMax/Sum: each repeat reduces its `mask` elements (source addressed as above with
//    srcBlkStride / srcRepStride) to one result written at dst + r * dstRepStride elements
//    (ORDER_ONLY_VALUE, WholeReduceSum) or to a (value, index) pair at
//    dst + r * dstRepStride * 2 elements (ORDER_VALUE_INDEX, the index stored as the bits of an
//    unsigned integer of T's size). Max returns the first largest element; Sum adds in order.
//  - Brcb: repeat r reads src[8r .. 8r + 7] and fills block j of the repeat
//    (dst + r * dstRepStride * B + j * dstBlkStride * B) with src[8r + j].
// In timing-only mode (BlockContext::functional false) the ops check and record but compute
// nothing.
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_mask.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(std::uint8_t dst_blk, std::uint8_t src0_blk, std::uint8_t src1_blk,
                     std::uint8_t dst_rep, std::uint8_t src0_rep, std::uint8_t src1_rep)
      : dstBlkStride(dst_blk),
        src0BlkStride(src0_blk),
        src1BlkStride(src1_blk),
        dstRepStride(dst_rep),
        src0RepStride(src0_rep),
        src1RepStride(src1_rep) {}
  std::uint8_t dstBlkStride = 1;
  std::uint8_t src0BlkStride = 1;
  std::uint8_t src1BlkStride = 1;
  std::uint8_t dstRepStride = 8;
  std::uint8_t src0RepStride = 8;
  std::uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(std::uint16_t dst_blk, std::uint16_t dst_rep)
      : dstBlkStride(dst_blk), dstRepStride(dst_rep) {}
  std::uint16_t dstBlkStride = 1;
  std::uint16_t dstRepStride = 8;
};

enum class ReduceOrder : std::uint8_t {
  ORDER_VALUE_INDEX = 0,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX
};

}  // namespace AscendC

namespace npusim::ascendc {

/// Element index (in T) of element e of repeat r for the given strides (in blocks).
template <class T>
NPUSIM_TWIN_FN std::uint64_t repeat_index(std::uint32_t r, std::uint32_t e, std::uint32_t blk,
                                          std::uint32_t rep) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  return (static_cast<std::uint64_t>(r) * rep + e / kB * blk) * kB + e % kB;
}

/// Last element index + 1 that `repeats` repeats of `mask` elements touch.
template <class T>
NPUSIM_TWIN_FN std::uint64_t repeat_span(std::uint32_t repeats, std::uint32_t mask,
                                         std::uint32_t blk, std::uint32_t rep) {
  if (repeats == 0 || mask == 0) return 0;
  return repeat_index<T>(repeats - 1, mask - 1, blk, rep) + 1;
}

template <class T>
NPUSIM_TWIN_FN void check_repeat(const Operand<T>& t, std::uint64_t span, const char* op,
                                 const char* which) {
  if (t.data == nullptr) fail(op, "%s has no buffer", which);
  if (span > t.size)
    fail(op, "%s: the repeats reach element %llu of a %u-element tensor", which,
         static_cast<unsigned long long>(span), t.size);
}

template <class T>
NPUSIM_TWIN_FN void check_mask(std::uint64_t mask, std::uint32_t repeats, const char* op) {
  if (mask == 0 || mask > 256 / sizeof(T))
    fail(op, "mask %llu outside 1..%u for this type", static_cast<unsigned long long>(mask),
         static_cast<unsigned>(256 / sizeof(T)));
  if (repeats == 0) fail(op, "repeatTimes must be positive");
}

template <class T, class F>
NPUSIM_TWIN_FN void binary_repeat_body(BlockContext& ctx, Op op, const char* name, Operand<T> dst,
                                       Operand<T> a, Operand<T> b, std::uint64_t mask,
                                       std::uint32_t repeats, const AscendC::BinaryRepeatParams& p,
                                       F f) {
  check_mask<T>(mask, repeats, name);
  const auto m = static_cast<std::uint32_t>(mask);
  check_repeat(dst, repeat_span<T>(repeats, m, p.dstBlkStride, p.dstRepStride), name, "dst");
  check_repeat(a, repeat_span<T>(repeats, m, p.src0BlkStride, p.src0RepStride), name, "src0");
  check_repeat(b, repeat_span<T>(repeats, m, p.src1BlkStride, p.src1RepStride), name, "src1");
  if (ctx.functional) {
    T out[256];
    for (std::uint32_t r = 0; r < repeats; ++r) {
      for (std::uint32_t e = 0; e < m; ++e) {
        out[e] = f(a.data[repeat_index<T>(r, e, p.src0BlkStride, p.src0RepStride)],
                   b.data[repeat_index<T>(r, e, p.src1BlkStride, p.src1RepStride)]);
      }
      for (std::uint32_t e = 0; e < m; ++e)
        dst.data[repeat_index<T>(r, e, p.dstBlkStride, p.dstRepStride)] = out[e];
    }
  }
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(repeats * m),
                sizeof(T), {{dst.slot, true}, {a.slot, false}, {b.slot, false}});
}

template <class T, class F>
void binary_repeat(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
                   std::uint64_t mask, std::uint8_t repeats, const AscendC::BinaryRepeatParams& p,
                   F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  binary_repeat_body(ctx, op, name, operand(dst), operand(a), operand(b), mask, repeats, p, f);
}

template <class T, bool kMax>
NPUSIM_TWIN_FN void whole_reduce_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                      std::int32_t mask, std::int32_t repeats, std::int32_t dst_rep,
                                      std::int32_t src_blk, std::int32_t src_rep,
                                      AscendC::ReduceOrder order) {
  const char* name = kMax ? "WholeReduceMax" : "WholeReduceSum";
  if (mask < 0 || repeats < 0 || dst_rep < 0 || src_blk < 0 || src_rep < 0)
    fail(name, "negative mask, repeat count or stride");
  check_mask<T>(static_cast<std::uint64_t>(mask), static_cast<std::uint32_t>(repeats), name);
  const bool pairs = kMax && order == AscendC::ReduceOrder::ORDER_VALUE_INDEX;
  if (kMax && !pairs && order != AscendC::ReduceOrder::ORDER_ONLY_VALUE)
    fail(name, "only ORDER_VALUE_INDEX and ORDER_ONLY_VALUE are supported by the simulator");
  const auto m = static_cast<std::uint32_t>(mask), n = static_cast<std::uint32_t>(repeats);
  check_repeat(src,
               repeat_span<T>(n, m, static_cast<std::uint32_t>(src_blk),
                              static_cast<std::uint32_t>(src_rep)),
               name, "src");
  const std::uint64_t unit = pairs ? 2 : 1;
  check_repeat(dst, (n - 1ull) * dst_rep * unit + unit, name, "dst");
  if (ctx.functional) {
    for (std::uint32_t r = 0; r < n; ++r) {
      auto at = [&](std::uint32_t e) NPUSIM_TWIN_FN {
        return src.data[repeat_index<T>(r, e, static_cast<std::uint32_t>(src_blk),
                                        static_cast<std::uint32_t>(src_rep))];
      };
      T acc = at(0);
      std::uint32_t best = 0;
      for (std::uint32_t e = 1; e < m; ++e) {
        if constexpr (kMax) {
          if (at(e) > acc) {
            acc = at(e);
            best = e;
          }
        } else {
          acc = static_cast<T>(acc + at(e));
        }
      }
      T* d = dst.data + static_cast<std::uint64_t>(r) * dst_rep * unit;
      d[0] = acc;
      if (pairs) {
        if constexpr (sizeof(T) == 2) {
          const auto idx = static_cast<std::uint16_t>(best);
          __builtin_memcpy(d + 1, &idx, sizeof idx);
        } else {
          const auto idx = static_cast<std::uint32_t>(best);
          __builtin_memcpy(d + 1, &idx, sizeof idx);
        }
      }
    }
  }
  record_vector(ctx, kMax ? Op::kReduceMax : Op::kReduceSum, dtype_of<T>(), dtype_of<T>(),
                static_cast<std::int32_t>(n * m), sizeof(T), {{dst.slot, true}, {src.slot, false}});
}

template <class T>
NPUSIM_TWIN_FN void brcb_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                              std::uint32_t repeats, const AscendC::BrcbRepeatParams& p) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  if (repeats == 0) fail("Brcb", "repeatTimes must be positive");
  check_repeat(src, repeats * 8ull, "Brcb", "src");
  const std::uint64_t span = ((repeats - 1ull) * p.dstRepStride + 7ull * p.dstBlkStride) * kB + kB;
  check_repeat(dst, span, "Brcb", "dst");
  if (ctx.functional) {
    for (std::uint32_t r = 0; r < repeats; ++r) {
      for (std::uint32_t j = 0; j < 8; ++j) {
        const T v = src.data[r * 8 + j];
        T* d =
            dst.data + (static_cast<std::uint64_t>(r) * p.dstRepStride + j * p.dstBlkStride) * kB;
        for (std::uint32_t e = 0; e < kB; ++e) d[e] = v;
      }
    }
  }
  record_vector(ctx, Op::kDuplicate, dtype_of<T>(), dtype_of<T>(),
                static_cast<std::int32_t>(repeats * 8 * kB), sizeof(T),
                {{dst.slot, true}, {src.slot, false}});
}

}  // namespace npusim::ascendc

namespace AscendC {

#define NPUSIM_BINARY_REPEAT_OP(NAME, OP, EXPR)                                                  \
  template <class T, bool kSetMask = true>                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                        \
                   const LocalTensor<T>& src1, std::uint64_t mask, const std::uint8_t repeats,   \
                   const BinaryRepeatParams& params) {                                           \
    if constexpr (kSetMask) {                                                                    \
      npusim::ascendc::binary_repeat(npusim::ascendc::Op::OP, #NAME, dst, src0, src1, mask,      \
                                    repeats, params,                                             \
                                    [](T a, T b) NPUSIM_TWIN_FN { return EXPR; });               \
    } else { /* the mask register (vector_mask.h) */                                             \
      npusim::ascendc::binary_repeat_op(npusim::ascendc::Op::OP, #NAME, dst, src0, src1, false,  \
                                        nullptr, mask, repeats, params,                          \
                                        [](T a, T b) NPUSIM_TWIN_FN { return EXPR; });           \
    }                                                                                            \
  }
NPUSIM_BINARY_REPEAT_OP(Add, kAdd, static_cast<T>(a + b))
NPUSIM_BINARY_REPEAT_OP(Sub, kSub, static_cast<T>(a - b))
NPUSIM_BINARY_REPEAT_OP(Mul, kMul, static_cast<T>(a* b))
NPUSIM_BINARY_REPEAT_OP(Div, kDiv, npusim::ascendc::divide(a, b))
NPUSIM_BINARY_REPEAT_OP(Max, kMax, (a > b ? a : b))
NPUSIM_BINARY_REPEAT_OP(Min, kMin, (a < b ? a : b))
#undef NPUSIM_BINARY_REPEAT_OP

template <class T, bool kSetMask = true>
inline void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const std::int32_t mask, const std::int32_t repeats,
                           const std::int32_t dst_rep_stride, const std::int32_t src_blk_stride,
                           const std::int32_t src_rep_stride,
                           ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  whole_reduce_body<T, true>(ctx, operand(dst), operand(src), mask, repeats, dst_rep_stride,
                             src_blk_stride, src_rep_stride, order);
}

template <class T, bool kSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const std::int32_t mask, const std::int32_t repeats,
                           const std::int32_t dst_rep_stride, const std::int32_t src_blk_stride,
                           const std::int32_t src_rep_stride) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  whole_reduce_body<T, false>(ctx, operand(dst), operand(src), mask, repeats, dst_rep_stride,
                              src_blk_stride, src_rep_stride, ReduceOrder::ORDER_ONLY_VALUE);
}

template <class T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint8_t repeats,
                 const BrcbRepeatParams& params) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  brcb_body<T>(ctx, operand(dst), operand(src), repeats, params);
}

}  // namespace AscendC
