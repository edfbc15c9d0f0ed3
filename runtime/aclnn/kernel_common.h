// SPDX-License-Identifier: Apache-2.0
// Small helpers the operator kernels (*_kernels.cpp) share. Kernel code: what these compute runs
// inside a kernel and is counted like the kernel's own scalar code (branch-free or a plain loop,
// inlined where they are used), so moving it here changes no kernel's basic blocks.
#pragma once

#include <cstdint>

#include "kernel_operator.h"  // last among a kernel file's includes: it defines asm()

namespace npusim::aclnn::kernels {

/// Queue depth of the kernels' double-buffered TQue tiles.
constexpr std::int32_t kBuffers = 2;

/// `bytes` rounded up to whole 32-byte blocks.
__aicore__ inline std::uint32_t round32(std::int64_t bytes) {
  return static_cast<std::uint32_t>((bytes + 31) / 32 * 32);
}

/// Element offset of row `r` (a linear index over dims[0 .. n)) in a tensor with those strides,
/// from the row's multi-index (innermost dimension first).
__aicore__ inline std::int64_t row_offset(std::int64_t r, std::int32_t n,
                                          const std::int64_t* dims, const std::int64_t* strides) {
  std::int64_t off = 0;
  for (std::int32_t d = n - 1; d >= 0; --d) {
    off += (r % dims[d]) * strides[d];
    r /= dims[d];
  }
  return off;
}

}  // namespace npusim::aclnn::kernels
