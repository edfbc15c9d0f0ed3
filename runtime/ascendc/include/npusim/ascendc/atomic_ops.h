// SPDX-License-Identifier: Apache-2.0
// Atomic DMA writes to GM: SetAtomicAdd<T>() / SetAtomicMax<T>() / SetAtomicMin<T>() make every
// later copy into GM (DataCopy, DataCopyPad from UB or L1) combine element-wise with the data
// there, in T, until SetAtomicNone() / DisableDmaAtomic(). T: float, half, bfloat16_t, int8_t,
// int16_t, int32_t (the Atlas A2/A3 atomic types); others are a kernel error. Half and bfloat16
// sums are computed in float and rounded back; integer sums wrap. The copies record the same
// MTE3 instruction as plain copies (the L2 does the combining).
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/trace.h"

namespace npusim::ascendc {

/// How a DMA write into GM combines with the data there.
enum class AtomicOp : std::uint8_t { kNone, kAdd, kMax, kMin };

/// Sets the block's atomic mode (`what` names the call in errors).
NPUSIM_KERNEL_API void set_atomic(AtomicOp op, DType dtype, const char* what);
/// The copy hooks (block_context.cpp, out of line so that kernels' inline copy code stays as it
/// is): before a DMA write to GM is checked, its old bytes are kept (atomic_before_write); when
/// its instruction is recorded, the bytes it wrote are combined with them (atomic_after_write).
void atomic_before_write(const BlockContext& ctx, const void* addr, std::uint64_t bytes);
void atomic_after_write(const BlockContext& ctx, const Instr& ins);
/// A block starts: no atomic mode.
void atomic_reset(const BlockContext& ctx);

}  // namespace npusim::ascendc

namespace AscendC {

template <class T>
inline void SetAtomicAdd() {
  npusim::ascendc::set_atomic(npusim::ascendc::AtomicOp::kAdd, npusim::ascendc::dtype_of<T>(),
                              "SetAtomicAdd");
}
template <class T>
inline void SetAtomicMax() {
  npusim::ascendc::set_atomic(npusim::ascendc::AtomicOp::kMax, npusim::ascendc::dtype_of<T>(),
                              "SetAtomicMax");
}
template <class T>
inline void SetAtomicMin() {
  npusim::ascendc::set_atomic(npusim::ascendc::AtomicOp::kMin, npusim::ascendc::dtype_of<T>(),
                              "SetAtomicMin");
}
inline void SetAtomicNone() {
  npusim::ascendc::set_atomic(npusim::ascendc::AtomicOp::kNone,
                              npusim::ascendc::DType::kUnknown, "SetAtomicNone");
}
inline void DisableDmaAtomic() {
  npusim::ascendc::set_atomic(npusim::ascendc::AtomicOp::kNone,
                              npusim::ascendc::DType::kUnknown, "DisableDmaAtomic");
}

}  // namespace AscendC
