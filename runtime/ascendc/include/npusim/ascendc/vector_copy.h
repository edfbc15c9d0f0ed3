// SPDX-License-Identifier: Apache-2.0
// Copy of the Ascend C twin: UB -> UB on the vector pipe, in repeats of 256 bytes (8 blocks of
// 32 bytes). Element e of repeat r is selected by the mask (a count: e < mask; or two 64-bit
// words: bit e % 64 of mask[e / 64]) and moves from
//   src[(r * srcRepeatSize + e / B * srcStride) * B + e % B] to the same place with the dst
// strides (B elements per 32-byte block, strides in blocks). 16- and 32-bit types only. The
// mask-register forms (isSetMask = false with MASK_PLACEHOLDER) are not here: they need the
// vector mask registers (SetVectorMask / SetMaskCount).
#pragma once

#include <cstdint>

#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/vector_mask.h"

namespace AscendC {

struct CopyRepeatParams {
  std::uint16_t dstStride = 1;
  std::uint16_t srcStride = 1;
  std::uint16_t dstRepeatSize = 8;
  std::uint16_t srcRepeatSize = 8;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// A vector mask: `count` leading elements, or the bits of `bits[0..1]`.
struct VecMask {
  std::uint64_t bits[2];
  NPUSIM_TWIN_FN bool has(std::uint32_t e) const { return ((bits[e / 64] >> (e % 64)) & 1u) != 0; }
  NPUSIM_TWIN_FN std::uint32_t last() const {  // highest selected element + 1 (0: none)
    if (bits[1] != 0) return 128 - static_cast<std::uint32_t>(__builtin_clzll(bits[1]));
    return bits[0] != 0 ? 64 - static_cast<std::uint32_t>(__builtin_clzll(bits[0])) : 0;
  }
  NPUSIM_TWIN_FN std::uint32_t count() const {
    return static_cast<std::uint32_t>(__builtin_popcountll(bits[0]) +
                                      __builtin_popcountll(bits[1]));
  }
};

template <class T>
NPUSIM_TWIN_FN VecMask count_mask(std::uint64_t count) {
  check_mask<T>(count, 1, "Copy");
  return VecMask{{first_bits(count, 0), first_bits(count, 1)}};
}

template <class T>
NPUSIM_TWIN_FN void copy_repeat_body(BlockContext& ctx, Operand<T> dst, Operand<T> src, VecMask m,
                                     std::uint32_t repeats, const AscendC::CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy: 16- or 32-bit elements only");
  const std::uint32_t last = m.last();
  if (last == 0 || last > 256 / sizeof(T) || repeats == 0)
    fail("Copy", "the mask selects elements up to %u of %u per repeat (repeatTime %u)", last,
         static_cast<unsigned>(256 / sizeof(T)), repeats);
  check_repeat(dst, repeat_span<T>(repeats, last, p.dstStride, p.dstRepeatSize), "Copy", "dst");
  check_repeat(src, repeat_span<T>(repeats, last, p.srcStride, p.srcRepeatSize), "Copy", "src");
  for (std::uint32_t r = 0; ctx.functional && r < repeats; ++r) {
    for (std::uint32_t e = 0; e < last; ++e) {
      if (!m.has(e)) continue;
      dst.data[repeat_index<T>(r, e, p.dstStride, p.dstRepeatSize)] =
          src.data[repeat_index<T>(r, e, p.srcStride, p.srcRepeatSize)];
    }
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), dtype_of<T>(),
                static_cast<std::int32_t>(repeats * m.count()), sizeof(T),
                {{dst.slot, true}, {src.slot, false}});
}

template <class T>
void copy_repeat(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, VecMask m,
                 std::uint8_t repeats, const AscendC::CopyRepeatParams& p) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (dst.mem() != Mem::kUb || src.mem() != Mem::kUb) fail("Copy", "both tensors must be in UB");
  copy_repeat_body(ctx, operand(dst), operand(src), m, repeats, p);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T, bool kSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask,
                 const std::uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  static_assert(kSetMask, "Copy: the mask-register form (isSetMask = false) is not supported");
  npusim::ascendc::copy_repeat(dst, src, npusim::ascendc::count_mask<T>(mask), repeatTime,
                               repeatParams);
}

template <class T, bool kSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],
                 const std::uint8_t repeatTime, const CopyRepeatParams& repeatParams) {
  static_assert(kSetMask, "Copy: the mask-register form (isSetMask = false) is not supported");
  npusim::ascendc::copy_repeat(dst, src, npusim::ascendc::VecMask{{mask[0], mask[1]}}, repeatTime,
                               repeatParams);
}

}  // namespace AscendC
