// SPDX-License-Identifier: Apache-2.0
// Vector (V pipe) data-rearranging and selecting operations of the Ascend C twin, used by the
// shape / pooling / embedding operators (runtime/aclnn/shape*.cpp, pool*.cpp):
//   Gather   dst[i] = element at byte (srcBaseAddr + srcOffset[i]) of src (UB -> UB gather);
//   Compare  one mask bit per element (LSB first in each byte): src0[i] <cmp> src1[i];
//   Select   dst[i] = mask bit i ? src0[i] : src1[i] (VSEL_TENSOR_TENSOR_MODE), or
//            VSEL_CMPMASK_SPR: the first 256 / sizeof(T) bits of selMask go to the CMPMASK
//            register (one V instruction, as SetCmpMask) and every repeat of 256 / sizeof(T)
//            elements selects with those same bits: dst[i] = bit (i % per) ? src0[i] : src1[i].
// Each call checks its operands (KernelError on misuse), computes on UB data unless the block is
// in timing-only mode (BlockContext::functional false), and records one V instruction of
// count x element-size bytes. The trace has no op codes of its own for these: Gather and Select
// are recorded as a V-pipe Copy (data moved inside UB), Compare as a Max (a comparison).
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

enum class CMPMODE : std::uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : std::uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE
};

}  // namespace AscendC

namespace npusim::ascendc {

template <class T>
NPUSIM_TWIN_FN void gather_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                Operand<std::uint32_t> offsets, std::uint32_t base,
                                std::uint32_t count) {
  const auto n = static_cast<std::int32_t>(count);
  check_operand(dst, n, "Gather", "dst");
  check_operand(offsets, n, "Gather", "srcOffset");
  if (src.data == nullptr) fail("Gather", "src has no buffer");
  const std::uint64_t src_bytes = static_cast<std::uint64_t>(src.size) * sizeof(T);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(src.data);
  // The offsets are data: in timing-only mode (no vector op computed them) they are undefined, so
  // they are neither checked nor used; the instruction's cost does not depend on them.
  for (std::uint32_t i = 0; i < count && ctx.functional; ++i) {
    const std::uint64_t at = static_cast<std::uint64_t>(base) + offsets.data[i];
    if (at % sizeof(T) != 0 || at + sizeof(T) > src_bytes) {
      fail("Gather", "element %u: byte offset %llu is unaligned or beyond src (%llu bytes)", i,
           static_cast<unsigned long long>(at), static_cast<unsigned long long>(src_bytes));
    }
    __builtin_memcpy(static_cast<void*>(dst.data + i), bytes + at, sizeof(T));
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), dtype_of<T>(), n, sizeof(T),
                {{dst.slot, true}, {src.slot, false}, {offsets.slot, false}});
}

template <class T>
NPUSIM_TWIN_FN bool compare_one(T a, T b, AscendC::CMPMODE mode) {
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return a < b;
    case AscendC::CMPMODE::GT:
      return a > b;
    case AscendC::CMPMODE::EQ:
      return a == b;
    case AscendC::CMPMODE::LE:
      return a <= b;
    case AscendC::CMPMODE::GE:
      return a >= b;
    default:
      return !(a == b);
  }
}

template <class T>
NPUSIM_TWIN_FN void compare_body(BlockContext& ctx, Operand<std::uint8_t> mask, Operand<T> a,
                                 Operand<T> b, AscendC::CMPMODE mode, std::uint32_t count) {
  const auto n = static_cast<std::int32_t>(count);
  check_operand(a, n, "Compare", "src0");
  check_operand(b, n, "Compare", "src1");
  check_operand(mask, static_cast<std::int32_t>((count + 7) / 8), "Compare", "dst mask");
  if (ctx.functional) {
    for (std::uint32_t i = 0; i < (count + 7) / 8; ++i) mask.data[i] = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      if (compare_one(a.data[i], b.data[i], mode))
        mask.data[i / 8] = static_cast<std::uint8_t>(mask.data[i / 8] | (1u << (i % 8)));
    }
  }
  record_vector(ctx, Op::kMax, dtype_of<T>(), dtype_of<T>(), n, sizeof(T),
                {{mask.slot, true}, {a.slot, false}, {b.slot, false}});
}

/// VSEL_CMPMASK_SPR: loads the CMPMASK register from selMask's first 256 / sizeof(T) bits (the
/// rest of the 128-bit register is cleared), then selects every repeat with those bits.
template <class T>
NPUSIM_TWIN_FN __attribute__((noinline)) void select_spr_body(BlockContext& ctx, Operand<T> dst,
                                                               Operand<std::uint8_t> mask,
                                                               Operand<T> a, Operand<T> b,
                                                               std::uint32_t count) {
  constexpr std::uint32_t kPer = 256 / sizeof(T);
  const auto n = static_cast<std::int32_t>(count);
  check_operand(dst, n, "Select", "dst");
  check_operand(a, n, "Select", "src0");
  check_operand(b, n, "Select", "src1");
  check_operand(mask, static_cast<std::int32_t>(kPer / 8), "Select", "selMask");
  std::uint8_t* reg = ctx.regs.cmp_mask;
  if (ctx.functional) {
    __builtin_memset(reg, 0, sizeof ctx.regs.cmp_mask);
    __builtin_memcpy(reg, mask.data, kPer / 8);
  }
  record_vector(ctx, Op::kCopy, DType::kUInt8, DType::kUInt8, 16, 1, {{mask.slot, false}});
  for (std::uint32_t i = 0; ctx.functional && i < count; ++i) {
    const std::uint32_t e = i % kPer;
    dst.data[i] = ((reg[e / 8] >> (e % 8)) & 1u) != 0 ? a.data[i] : b.data[i];
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), dtype_of<T>(), n, sizeof(T),
                {{dst.slot, true}, {a.slot, false}, {b.slot, false}});
}

template <class T>
NPUSIM_TWIN_FN void select_body(BlockContext& ctx, Operand<T> dst, Operand<std::uint8_t> mask,
                                Operand<T> a, Operand<T> b, AscendC::SELMODE mode,
                                std::uint32_t count) {
  if (mode == AscendC::SELMODE::VSEL_CMPMASK_SPR) {
    select_spr_body(ctx, dst, mask, a, b, count);
    return;
  }
  if (mode != AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE)
    fail("Select", "two tensors need VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE");
  const auto n = static_cast<std::int32_t>(count);
  check_operand(dst, n, "Select", "dst");
  check_operand(a, n, "Select", "src0");
  check_operand(b, n, "Select", "src1");
  check_operand(mask, static_cast<std::int32_t>((count + 7) / 8), "Select", "selMask");
  if (ctx.functional) {
    for (std::uint32_t i = 0; i < count; ++i)
      dst.data[i] = ((mask.data[i / 8] >> (i % 8)) & 1u) != 0 ? a.data[i] : b.data[i];
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), dtype_of<T>(), n, sizeof(T),
                {{dst.slot, true}, {mask.slot, false}, {a.slot, false}, {b.slot, false}});
}

}  // namespace npusim::ascendc

namespace AscendC {

/// dst[i] = the T at byte srcBaseAddr + srcOffset[i] of src (offsets in bytes, T-aligned, inside
/// src; KernelError otherwise).
template <class T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                   const LocalTensor<std::uint32_t>& srcOffset, const std::uint32_t srcBaseAddr,
                   const std::uint32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  gather_body(ctx, operand(dst), operand(src), operand(srcOffset), srcBaseAddr, count);
}

/// Bit i of dst (LSB first in each byte) = src0[i] <mode> src1[i].
template <class T, class U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                    const LocalTensor<T>& src1, CMPMODE mode, std::uint32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  compare_body(ctx, operand(dst.template ReinterpretCast<std::uint8_t>()), operand(src0),
               operand(src1), mode, count);
}

/// VSEL_TENSOR_TENSOR_MODE: dst[i] = bit i of selMask ? src0[i] : src1[i]; VSEL_CMPMASK_SPR:
/// bit i % (256 / sizeof(T)) of selMask, through the CMPMASK register (see the file comment).
template <class T, class U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                   const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE mode,
                   std::uint32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  select_body(ctx, operand(dst), operand(selMask.template ReinterpretCast<std::uint8_t>()),
              operand(src0), operand(src1), mode, count);
}

}  // namespace AscendC
