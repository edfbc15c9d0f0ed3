// SPDX-License-Identifier: Apache-2.0
// The vector mask of the Ascend C twin and the repeat-form engine the level-0 ops share.
//
// A repeat-form vector instruction processes `repeatTimes` repeats of 256 bytes (per = 256 /
// element size elements; for Cast the wider type's). Which elements of a repeat take part is the
// mask:
//  - normal mode (SetMaskNorm, the default): a count `mask` (the first `mask` elements of every
//    repeat) or two 64-bit words (bit e of mask[e / 64] = element e), the same in every repeat;
//  - counter mode (SetMaskCount): the mask value is a number of elements N for the whole
//    instruction; repeatTimes is ignored, the instruction runs ceil(N / per) repeats, all full
//    but the last.
// With isSetMask = true (the default) the op passes its own mask argument; with isSetMask =
// false it uses the value SetVectorMask put in the mask register (its mask argument is
// MASK_PLACEHOLDER). The register and mode are per block (BlockContext::regs) and start as
// normal mode, all bits set (ResetMask restores that).
// Element e of repeat r of an operand with block stride b and repeat stride R (both in 32-byte
// blocks, B elements per block) is at (r * R + (e / B) * b) * B + e % B. Sources of a repeat are
// read before its destination is written. Instructions record count = elements processed and
// bytes = count x the wider element size, on the V pipe, as the other vector ops do.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/int4.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

/// Word `word` (0: elements 0..63, 1: 64..127) of a mask selecting the first n elements.
NPUSIM_TWIN_FN constexpr std::uint64_t first_bits(std::uint64_t n, unsigned word) {
  const std::uint64_t k = n > word * 64u ? n - word * 64u : 0;
  return k >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
}

}  // namespace npusim::ascendc

namespace AscendC {

enum class MaskMode : std::uint8_t { NORMAL = 0, COUNTER };

/// The mask argument of an op whose mask the kernel set with SetVectorMask (isSetMask false).
inline constexpr std::int32_t MASK_PLACEHOLDER = 0;

struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(std::uint16_t dst_blk, std::uint16_t src_blk, std::uint8_t dst_rep,
                    std::uint8_t src_rep)
      : dstBlkStride(dst_blk), srcBlkStride(src_blk), dstRepStride(dst_rep),
        srcRepStride(src_rep) {}
  std::uint16_t dstBlkStride = 1;
  std::uint16_t srcBlkStride = 1;
  std::uint8_t dstRepStride = 8;
  std::uint8_t srcRepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

inline void SetMaskCount() { npusim::ascendc::block().regs.counter_mode = true; }
inline void SetMaskNorm() { npusim::ascendc::block().regs.counter_mode = false; }

/// Normal mode: bits (high, low) of the 128-element mask. Counter mode: `low` elements.
template <class T, MaskMode kMode = MaskMode::NORMAL>
inline void SetVectorMask(const std::uint64_t maskHigh, const std::uint64_t maskLow) {
  auto& regs = npusim::ascendc::block().regs;
  regs.mask[0] = maskLow;
  regs.mask[1] = kMode == MaskMode::COUNTER ? 0 : maskHigh;
}

/// The first `len` elements (normal mode) or `len` elements in all (counter mode).
template <class T, MaskMode kMode = MaskMode::NORMAL>
inline void SetVectorMask(const std::int32_t len) {
  auto& regs = npusim::ascendc::block().regs;
  if (len < 0) npusim::ascendc::fail("SetVectorMask", "negative length %d", len);
  if (regs.counter_mode || kMode == MaskMode::COUNTER) {
    regs.mask[0] = static_cast<std::uint64_t>(len);
    regs.mask[1] = 0;
    return;
  }
  if (len > 128) npusim::ascendc::fail("SetVectorMask", "length %d is over 128 elements", len);
  regs.mask[0] = npusim::ascendc::first_bits(static_cast<std::uint64_t>(len), 0);
  regs.mask[1] = npusim::ascendc::first_bits(static_cast<std::uint64_t>(len), 1);
}

/// ceil(a / b) for integers (0 when b is 0).
template <class T>
constexpr T DivCeil(T a, T b) {
  return b == 0 ? T(0) : static_cast<T>((a + b - 1) / b);
}

/// DivCeil of two integers of different types (`n * sizeof(T)` by a literal 32), in their
/// common type.
template <class T, class U,
          class = std::enable_if_t<std::is_integral_v<T> && std::is_integral_v<U> &&
                                   !std::is_same_v<T, U>>>
constexpr std::common_type_t<T, U> DivCeil(T a, U b) {
  using C = std::common_type_t<T, U>;
  return DivCeil<C>(static_cast<C>(a), static_cast<C>(b));
}

/// The core's cycle counter: the twin runs a block before the timing model prices it, so there is
/// no cycle count to read; a kernel that reads it fails naming the call.
inline std::int64_t GetSystemCycle() {
  npusim::ascendc::fail("GetSystemCycle", "not supported: simulated cycles are computed after "
                        "the block has run (see the timeline instead)");
}

inline void ResetMask() {
  auto& regs = npusim::ascendc::block().regs;
  regs.mask[0] = regs.mask[1] = ~std::uint64_t{0};
}

}  // namespace AscendC

namespace npusim::ascendc {

/// Which elements of which repeats one repeat-form instruction processes.
struct Lanes {
  std::uint64_t bits[2] = {0, 0};  // normal mode: the elements of every repeat
  std::uint64_t counter = 0;       // counter mode: elements in all (bits unused)
  bool counting = false;
  std::uint32_t repeats = 0;
  std::uint32_t per = 0;  // elements per repeat

  NPUSIM_TWIN_FN bool on(std::uint32_t r, std::uint32_t e) const {
    if (counting) return static_cast<std::uint64_t>(r) * per + e < counter;
    return ((bits[e / 64] >> (e % 64)) & 1u) != 0;
  }
  NPUSIM_TWIN_FN std::uint64_t count() const {
    std::uint64_t n = 0;
    for (std::uint32_t r = 0; r < repeats; ++r)
      for (std::uint32_t e = 0; e < per; ++e) n += on(r, e) ? 1 : 0;
    return n;
  }
};

/// The lanes of an op given its mask argument (`bits` non-null: the two-word form, else the count
/// `mask`), repeat count and isSetMask, in the block's current mode.
NPUSIM_TWIN_FN inline Lanes lanes_of(const BlockContext& ctx, bool set_mask,
                                     const std::uint64_t* bits, std::uint64_t mask,
                                     std::uint32_t repeats, std::uint32_t per, const char* op) {
  Lanes l;
  l.per = per;
  if (ctx.regs.counter_mode) {
    l.counting = true;
    l.counter = !set_mask ? ctx.regs.mask[0] : bits != nullptr ? bits[0] : mask;
    l.repeats = static_cast<std::uint32_t>((l.counter + per - 1) / per);
    return l;
  }
  l.repeats = repeats;
  if (!set_mask || bits != nullptr) {
    const std::uint64_t* src = set_mask ? bits : ctx.regs.mask;
    l.bits[0] = src[0];
    l.bits[1] = per > 64 ? src[1] : 0;
    if (per < 64) l.bits[0] &= (std::uint64_t{1} << per) - 1;
    return l;
  }
  if (mask > per) fail(op, "mask %llu is over the %u elements of a repeat",
                       static_cast<unsigned long long>(mask), per);
  l.bits[0] = first_bits(mask, 0);
  l.bits[1] = first_bits(mask, 1);
  return l;
}

/// Element index of element e of repeat r (strides in 32-byte blocks of `per_block` elements).
NPUSIM_TWIN_FN inline std::uint64_t lane_index(std::uint32_t r, std::uint32_t e, std::uint32_t blk,
                                               std::uint32_t rep, std::uint32_t per_block) {
  return (static_cast<std::uint64_t>(r) * rep + e / per_block * blk) * per_block + e % per_block;
}

/// Elements an operand of T can hold (int4b_t: two per byte).
template <class T>
NPUSIM_TWIN_FN std::uint64_t capacity(const Operand<T>& t) {
  return IsInt4<T>::value ? std::uint64_t{t.size} * 2 : t.size;
}

/// KernelError unless every lane of `l` addressed with (blk, rep) lies inside t.
template <class T>
NPUSIM_TWIN_FN void check_lanes(const Operand<T>& t, const Lanes& l, std::uint32_t blk,
                                std::uint32_t rep, const char* op, const char* which) {
  if (t.data == nullptr) fail(op, "%s has no buffer", which);
  constexpr std::uint32_t kPerBlock = 256 / element_bits<T>();
  std::uint64_t end = 0;
  for (std::uint32_t r = 0; r < l.repeats; ++r) {
    for (std::uint32_t e = 0; e < l.per; ++e) {
      const std::uint64_t i = lane_index(r, e, blk, rep, kPerBlock) + 1;
      if (l.on(r, e) && i > end) end = i;
    }
  }
  if (end > capacity(t))
    fail(op, "%s: the repeats reach element %llu of a %llu-element tensor", which,
         static_cast<unsigned long long>(end), static_cast<unsigned long long>(capacity(t)));
}

/// What one element of T reads as (int4b_t: an int).
template <class T>
using Loaded = std::conditional_t<IsInt4<T>::value, int, T>;

template <class T>
NPUSIM_TWIN_FN Loaded<T> load_elem(const T* base, std::uint64_t i) {
  if constexpr (IsInt4<T>::value) {
    return load_int4(base, i);
  } else {
    return base[i];
  }
}

template <class T>
NPUSIM_TWIN_FN void store_elem(T* base, std::uint64_t i, Loaded<T> v) {
  if constexpr (IsInt4<T>::value) {
    store_int4(base, i, v);
  } else {
    base[i] = v;
  }
}

/// Trace element type (int4b_t: recorded as int8).
template <class T>
constexpr DType trace_dtype() {
  return IsInt4<T>::value ? DType::kInt8 : dtype_of<T>();
}

/// d(e) = f(s(e)) over the lanes, one V instruction. f: Loaded<S> -> Loaded<D>.
template <class D, class S, class F>
NPUSIM_TWIN_FN void unary_lanes(BlockContext& ctx, Op op, const char* name, Operand<D> dst,
                                Operand<S> src, const Lanes& l,
                                const AscendC::UnaryRepeatParams& p, F f) {
  constexpr std::uint32_t kDb = 256 / element_bits<D>(), kSb = 256 / element_bits<S>();
  check_lanes(dst, l, p.dstBlkStride, p.dstRepStride, name, "dst");
  check_lanes(src, l, p.srcBlkStride, p.srcRepStride, name, "src");
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    Loaded<D> out[256];
    for (std::uint32_t e = 0; e < l.per; ++e) {
      if (l.on(r, e))
        out[e] = f(load_elem(src.data, lane_index(r, e, p.srcBlkStride, p.srcRepStride, kSb)));
    }
    for (std::uint32_t e = 0; e < l.per; ++e) {
      if (l.on(r, e))
        store_elem(dst.data, lane_index(r, e, p.dstBlkStride, p.dstRepStride, kDb), out[e]);
    }
  }
  const unsigned wide = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
  record_vector(ctx, op, trace_dtype<D>(), trace_dtype<S>(), static_cast<std::int32_t>(l.count()),
                wide, {{dst.slot, true}, {src.slot, false}});
}

/// d(e) = f(a(e), b(e)) over the lanes, one V instruction.
/// P: BinaryRepeatParams (attention_ops.h, which includes this header).
template <class T, class P, class F>
NPUSIM_TWIN_FN void binary_lanes(BlockContext& ctx, Op op, const char* name, Operand<T> dst,
                                 Operand<T> a, Operand<T> b, const Lanes& l, const P& p, F f) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  check_lanes(dst, l, p.dstBlkStride, p.dstRepStride, name, "dst");
  check_lanes(a, l, p.src0BlkStride, p.src0RepStride, name, "src0");
  check_lanes(b, l, p.src1BlkStride, p.src1RepStride, name, "src1");
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    T out[256];
    for (std::uint32_t e = 0; e < l.per; ++e) {
      if (l.on(r, e))
        out[e] = f(a.data[lane_index(r, e, p.src0BlkStride, p.src0RepStride, kB)],
                   b.data[lane_index(r, e, p.src1BlkStride, p.src1RepStride, kB)]);
    }
    for (std::uint32_t e = 0; e < l.per; ++e) {
      if (l.on(r, e)) dst.data[lane_index(r, e, p.dstBlkStride, p.dstRepStride, kB)] = out[e];
    }
  }
  record_vector(ctx, op, dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(l.count()),
                sizeof(T), {{dst.slot, true}, {a.slot, false}, {b.slot, false}});
}

/// Kernel-facing shell of a repeat-form unary op (count mask or, with bits, the two-word mask).
template <class D, class S, class F>
void unary_repeat_op(Op op, const char* name, const AscendC::LocalTensor<D>& dst,
                     const AscendC::LocalTensor<S>& src, bool set_mask, const std::uint64_t* bits,
                     std::uint64_t mask, std::uint32_t repeats, const AscendC::UnaryRepeatParams& p,
                     F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  constexpr unsigned kWide = element_bits<D>() > element_bits<S>() ? element_bits<D>()
                                                                   : element_bits<S>();
  const Lanes l = lanes_of(ctx, set_mask, bits, mask, repeats, 2048 / kWide, name);
  unary_lanes(ctx, op, name, operand(dst), operand(src), l, p, f);
}

template <class T, class P, class F>
void binary_repeat_op(Op op, const char* name, const AscendC::LocalTensor<T>& dst,
                      const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
                      bool set_mask, const std::uint64_t* bits, std::uint64_t mask,
                      std::uint32_t repeats, const P& p, F f) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Lanes l = lanes_of(ctx, set_mask, bits, mask, repeats, 256 / sizeof(T), name);
  binary_lanes(ctx, op, name, operand(dst), operand(a), operand(b), l, p, f);
}

}  // namespace npusim::ascendc
