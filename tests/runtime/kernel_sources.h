// SPDX-License-Identifier: Apache-2.0
// Launch wrappers of the test kernels (kernel_sources.cpp), like the samples' kernel_ops.h.
#pragma once

#include <cstdint>

/// out[b] = value + b for every block b.
int32_t FillDo(uint32_t block_dim, void* stream, int32_t* out, int32_t value);
/// Each block prints "hello <tag> from block <b> of <n>".
int32_t HelloDo(uint32_t block_dim, void* stream, int32_t tag);
/// x[0] += 1 per block.
int32_t AddOneDo(uint32_t block_dim, void* stream, int32_t* x);
/// Each block prints "before the trap <b>", then traps.
int32_t TrapDo(uint32_t block_dim, void* stream);
// A __cube__ kernel trapping before its first instruction.
int32_t CubeTrapDo(uint32_t block_dim, void* stream);
/// *out = value through GlobalTensor::SetValue (the runtime checks the address).
int32_t StoreCheckedDo(uint32_t block_dim, void* stream, void* out, int32_t value);
/// Raw store `value` at `out + offset` (no twin check: a fault is caught by the launcher).
int32_t StoreRawDo(uint32_t block_dim, void* stream, void* out, uint64_t offset, int32_t value);
// One block: out[0..5] = a / b, a % b, x / y, x % y, u / v, u % v (int64_t each).
int32_t DivideDo(void* stream, void* out, int32_t a, int32_t b, int64_t x, int64_t y, uint32_t u,
                 uint32_t v);
/// Takes `bytes` of UB with TPipe::InitBuffer.
int32_t UbHogDo(uint32_t block_dim, void* stream, uint32_t bytes);
/// Copies 256 halves from src into L1 (a cube-side kernel).
int32_t ToL1Do(uint32_t block_dim, void* stream, void* src);
