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

namespace npusim::ascendc {

/// Sets the block's atomic mode (`what` names the call in errors).
NPUSIM_KERNEL_API void set_atomic(AtomicOp op, DType dtype, const char* what);
/// Combines `count` bursts of `len` bytes from src into GM at dst (burst i at i * pitch) with the
/// block's atomic mode.
NPUSIM_KERNEL_API void atomic_bursts(BlockContext& ctx, std::uint8_t* dst, const std::uint8_t* src,
                                     std::uint32_t count, std::uint64_t len,
                                     std::uint64_t src_pitch, std::uint64_t dst_pitch);

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
