// SPDX-License-Identifier: Apache-2.0
// The mask-and-repeat ("level 0") forms of the element-wise vector ops (V pipe) of the Ascend C
// twin that vector_ops.h has only in their count form, and the block / repeat reductions:
//   Exp / Ln / Sqrt / Abs / Relu / Reciprocal<T, isSetMask>(dst, src, mask, repeatTime,
//        UnaryRepeatParams)                         f(x) of every active lane
//   Adds / Muls / Maxs / Mins<T, isSetMask>(dst, src, scalar, mask, repeatTime, UnaryRepeatParams)
//   Duplicate<T, isSetMask>(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride)
//   And / Or<T, isSetMask>(dst, src0, src1, mask, repeatTime, BinaryRepeatParams)  integer types
//   BlockReduceSum / BlockReduceMax / BlockReduceMin<T, isSetMask>(dst, src, repeatTime, mask,
//        dstRepStride, srcBlkStride, srcRepStride)  each 32-byte block of a repeat -> one
//        result: 8 per repeat at dst + r * dstRepStride * 8 + block (ReduceDataBlock's layout)
//   RepeatReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstBlkStride (unused),
//        srcBlkStride, dstRepStride, srcRepStride)  each repeat -> one sum at dst + r * dstRepStride
//   CompareScalar(dst, src0, scalar, cmpMode, count)  bit i of dst = src0[i] <cmpMode> scalar
//        (Compares under its CANN 9 name)
// `mask` is either a count (the first `mask` lanes of every repeat, at most 256 bytes of T) or the
// two-word bit mask (const uint64_t[2]); with isSetMask = false both are placeholders and the op
// uses the mask register (SetVectorMask, SetMaskCount / SetMaskNorm: vector_mask.h). Lane e of
// repeat r of an operand is at element (r * repStride + e / B * blkStride) * B + e % B, B =
// elements per 32-byte block. Every repeat reads its sources before writing its destination.
// Each call is one V instruction of the active lanes (count = lanes, bytes = lanes x element
// size), priced by the pipe model as the count-form op of the same Op (And/Or as Min/Max,
// Reciprocal as Div, the reductions as ReduceSum/ReduceMax/ReduceMin, CompareScalar as Max).
// Sums add in a binary tree (pairs, then pairs of pairs), every partial sum rounded to T; Max and
// Min take the first extreme. In timing-only mode the ops check and record but compute nothing.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_basic.h"
#include "npusim/ascendc/vector_mask.h"
#include "npusim/ascendc/vector_ops.h"
#include "npusim/ascendc/vector_reduce.h"
#include "npusim/ascendc/vector_select.h"

namespace npusim::ascendc {

/// Duplicate over lanes: every active lane of dst (dst strides in blocks) = s.
template <class T>
NPUSIM_TWIN_FN void duplicate_lanes(BlockContext& ctx, Operand<T> dst, T s, const Lanes& l,
                                    std::uint32_t blk, std::uint32_t rep) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  check_lanes(dst, l, blk, rep, "Duplicate", "dst");
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    for (std::uint32_t e = 0; e < l.per; ++e) {
      if (l.on(r, e)) dst.data[lane_index(r, e, blk, rep, kB)] = s;
    }
  }
  record_vector(ctx, Op::kDuplicate, dtype_of<T>(), dtype_of<T>(),
                static_cast<std::int32_t>(l.count()), sizeof(T), {{dst.slot, true}});
}

template <class T>
void duplicate_repeat(const AscendC::LocalTensor<T>& dst, T s, bool set_mask,
                      const std::uint64_t* bits, std::uint64_t mask, std::uint32_t repeats,
                      std::uint32_t blk, std::uint32_t rep) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Lanes l = lanes_of(ctx, set_mask, bits, mask, repeats, 256 / sizeof(T), "Duplicate");
  duplicate_lanes(ctx, operand(dst), s, l, blk, rep);
}

}  // namespace npusim::ascendc

namespace AscendC {

// ---- unary ops: (dst, src, mask, repeatTime, UnaryRepeatParams) ----
#define NPUSIM_L0_UNARY(NAME, OP, EXPR)                                                           \
  template <class T, bool kSetMask = true>                                                        \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask,      \
                   const std::uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {        \
    npusim::ascendc::unary_repeat_op(npusim::ascendc::Op::OP, #NAME, dst, src, kSetMask, nullptr, \
                                     mask, repeatTime, repeatParams,                              \
                                     [](T x) NPUSIM_TWIN_FN { return EXPR; });                    \
  }                                                                                               \
  template <class T, bool kSetMask = true>                                                        \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                          \
                   const std::uint64_t mask[], const std::uint8_t repeatTime,                     \
                   const UnaryRepeatParams& repeatParams) {                                       \
    npusim::ascendc::unary_repeat_op(npusim::ascendc::Op::OP, #NAME, dst, src, kSetMask, mask, 0, \
                                     repeatTime, repeatParams,                                    \
                                     [](T x) NPUSIM_TWIN_FN { return EXPR; });                    \
  }
NPUSIM_L0_UNARY(Exp, kExp, npusim::ascendc::through_float(x, npusim::ascendc::ExpF()))
NPUSIM_L0_UNARY(Ln, kLn, npusim::ascendc::through_float(x, npusim::ascendc::LnF()))
NPUSIM_L0_UNARY(Sqrt, kSqrt, npusim::ascendc::through_float(x, npusim::ascendc::SqrtF()))
NPUSIM_L0_UNARY(Abs, kAbs, npusim::ascendc::absolute(x))
NPUSIM_L0_UNARY(Relu, kRelu, (x > T(0) ? x : T(0)))
NPUSIM_L0_UNARY(Reciprocal, kDiv, npusim::ascendc::divide(static_cast<T>(1.0f), x))
#undef NPUSIM_L0_UNARY

// ---- scalar ops: (dst, src, scalar, mask, repeatTime, UnaryRepeatParams) ----
#define NPUSIM_L0_SCALAR(NAME, OP, EXPR)                                                           \
  template <class T, bool kSetMask = true>                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                           \
                   const typename npusim::ascendc::Identity<T>::type& scalar, std::uint64_t mask,  \
                   const std::uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {         \
    const T s = scalar;                                                                            \
    npusim::ascendc::unary_repeat_op(npusim::ascendc::Op::OP, #NAME, dst, src, kSetMask, nullptr,  \
                                     mask, repeatTime, repeatParams,                               \
                                     [s](T x) NPUSIM_TWIN_FN { return EXPR; });                    \
  }                                                                                                \
  template <class T, bool kSetMask = true>                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                           \
                   const typename npusim::ascendc::Identity<T>::type& scalar,                      \
                   const std::uint64_t mask[], const std::uint8_t repeatTime,                      \
                   const UnaryRepeatParams& repeatParams) {                                        \
    const T s = scalar;                                                                            \
    npusim::ascendc::unary_repeat_op(npusim::ascendc::Op::OP, #NAME, dst, src, kSetMask, mask, 0,  \
                                     repeatTime, repeatParams,                                     \
                                     [s](T x) NPUSIM_TWIN_FN { return EXPR; });                    \
  }
NPUSIM_L0_SCALAR(Adds, kAdds, static_cast<T>(x + s))
NPUSIM_L0_SCALAR(Muls, kMuls, static_cast<T>(x* s))
NPUSIM_L0_SCALAR(Maxs, kMax, (x > s ? x : s))
NPUSIM_L0_SCALAR(Mins, kMin, (x < s ? x : s))
#undef NPUSIM_L0_SCALAR

// ---- Duplicate: (dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride) ----
template <class T, bool kSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst,
                      const typename npusim::ascendc::Identity<T>::type& scalar, std::uint64_t mask,
                      const std::uint8_t repeatTime, const std::uint16_t dstBlockStride,
                      const std::uint8_t dstRepeatStride) {
  npusim::ascendc::duplicate_repeat<T>(dst, scalar, kSetMask, nullptr, mask, repeatTime,
                                       dstBlockStride, dstRepeatStride);
}

template <class T, bool kSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst,
                      const typename npusim::ascendc::Identity<T>::type& scalar,
                      const std::uint64_t mask[], const std::uint8_t repeatTime,
                      const std::uint16_t dstBlockStride, const std::uint8_t dstRepeatStride) {
  npusim::ascendc::duplicate_repeat<T>(dst, scalar, kSetMask, mask, 0, repeatTime, dstBlockStride,
                                       dstRepeatStride);
}

// ---- bitwise binary ops: (dst, src0, src1, mask, repeatTime, BinaryRepeatParams) ----
#define NPUSIM_L0_BITWISE(NAME, OP, EXPR)                                                         \
  template <class T, bool kSetMask = true>                                                        \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                         \
                   const LocalTensor<T>& src1, std::uint64_t mask, const std::uint8_t repeatTime, \
                   const BinaryRepeatParams& repeatParams) {                                      \
    npusim::ascendc::require_integer<T>(#NAME);                                                   \
    npusim::ascendc::binary_repeat_op(npusim::ascendc::Op::OP, #NAME, dst, src0, src1, kSetMask,  \
                                      nullptr, mask, repeatTime, repeatParams,                    \
                                      [](T a, T b) NPUSIM_TWIN_FN { return EXPR; });              \
  }                                                                                               \
  template <class T, bool kSetMask = true>                                                        \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                         \
                   const LocalTensor<T>& src1, const std::uint64_t mask[],                        \
                   const std::uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {       \
    npusim::ascendc::require_integer<T>(#NAME);                                                   \
    npusim::ascendc::binary_repeat_op(npusim::ascendc::Op::OP, #NAME, dst, src0, src1, kSetMask,  \
                                      mask, 0, repeatTime, repeatParams,                          \
                                      [](T a, T b) NPUSIM_TWIN_FN { return EXPR; });              \
  }
NPUSIM_L0_BITWISE(And, kMin, static_cast<T>(a & b))
NPUSIM_L0_BITWISE(Or, kMax, static_cast<T>(a | b))
#undef NPUSIM_L0_BITWISE

// ---- block and repeat reductions ----
#define NPUSIM_L0_BLOCK_REDUCE(NAME, KIND, MASK, BITS, COUNT)                                    \
  template <class T, bool kSetMask = true>                                                       \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                         \
                   const std::int32_t repeatTime, MASK mask, const std::int32_t dstRepStride,    \
                   const std::int32_t srcBlkStride, const std::int32_t srcRepStride) {           \
    npusim::ascendc::reduce_groups<ReduceType::KIND, T>(#NAME, 32 / sizeof(T), dst, src,         \
                                                        kSetMask, BITS, COUNT, repeatTime,       \
                                                        dstRepStride, srcBlkStride,              \
                                                        srcRepStride);                           \
  }
NPUSIM_L0_BLOCK_REDUCE(BlockReduceSum, SUM, const std::int32_t, nullptr, mask)
NPUSIM_L0_BLOCK_REDUCE(BlockReduceMax, MAX, const std::int32_t, nullptr, mask)
NPUSIM_L0_BLOCK_REDUCE(BlockReduceMin, MIN, const std::int32_t, nullptr, mask)
NPUSIM_L0_BLOCK_REDUCE(BlockReduceSum, SUM, const std::uint64_t*, mask, 0)
NPUSIM_L0_BLOCK_REDUCE(BlockReduceMax, MAX, const std::uint64_t*, mask, 0)
NPUSIM_L0_BLOCK_REDUCE(BlockReduceMin, MIN, const std::uint64_t*, mask, 0)
#undef NPUSIM_L0_BLOCK_REDUCE

/// Each repeat's active lanes -> one sum at dst + r * dstRepStride (dstBlkStride has no effect).
template <class T, bool kSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const std::int32_t repeatTime, const std::int32_t mask,
                            const std::int32_t dstBlkStride, const std::int32_t srcBlkStride,
                            const std::int32_t dstRepStride, const std::int32_t srcRepStride) {
  (void)dstBlkStride;
  npusim::ascendc::reduce_repeat<ReduceType::SUM, T>(dst, src, kSetMask, nullptr, mask, repeatTime,
                                                     dstRepStride, srcBlkStride, srcRepStride,
                                                     ReduceOrder::ORDER_ONLY_VALUE);
}

/// bit i of dst = src0[i] <cmpMode> scalar, for i < count.
template <class T, class U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                          const typename npusim::ascendc::Identity<T>::type src1Scalar,
                          CMPMODE cmpMode, std::uint32_t count) {
  Compares(dst, src0, static_cast<T>(src1Scalar), cmpMode, count);
}

}  // namespace AscendC
