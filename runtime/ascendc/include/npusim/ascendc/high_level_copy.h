// SPDX-License-Identifier: Apache-2.0
// UB -> UB moves the twin's high-level APIs share (Pad, UnPad, ConfusionTranspose, Sort, TopK):
// exactly `n` elements from src to dst, as the vector pipe's Copy instruction (vector_copy.h)
// does them: full 256-byte repeats (up to 255 per instruction) and one masked repeat for the
// tail, so the elements after the n-th in dst are left as they were. 16- and 32-bit types.
#pragma once

#include <cstdint>

#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_copy.h"

namespace npusim::ascendc {

/// dst[0, n) = src[0, n) by Copy instructions (one per 255 full repeats, one for the tail).
template <class T>
void ub_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
             std::uint32_t n) {
  constexpr std::uint32_t kPerRepeat = 256 / sizeof(T);
  const AscendC::CopyRepeatParams packed{1, 1, 8, 8};
  std::uint32_t at = 0;
  for (std::uint32_t full = n / kPerRepeat; full > 0;) {
    const std::uint32_t r = full < 255 ? full : 255;
    AscendC::Copy(dst[at], src[at], kPerRepeat, static_cast<std::uint8_t>(r), packed);
    at += r * kPerRepeat;
    full -= r;
  }
  if (at < n) AscendC::Copy(dst[at], src[at], n - at, 1, packed);
}

/// Rows of 32-byte blocks: block j of row r moves from src block (r * src_row + j) to dst block
/// (r * dst_row + j), `blocks` blocks per row, `rows` rows, in Copy instructions of up to 255
/// repeats of 8 blocks when the strides fit the instruction's fields (else one per row).
template <class T>
void ub_copy_block_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        std::uint32_t rows, std::uint32_t blocks, std::uint32_t dst_row,
                        std::uint32_t src_row) {
  constexpr std::uint32_t kB = 32 / sizeof(T);  // elements per block
  if (blocks == 1 && dst_row <= 0xFFFF && src_row <= 0xFFFF && dst_row * 8 <= 0xFFFF &&
      src_row * 8 <= 0xFFFF) {
    // One block per row: each repeat moves 8 rows, the block stride being the row pitch.
    const AscendC::CopyRepeatParams p{static_cast<std::uint16_t>(dst_row),
                                      static_cast<std::uint16_t>(src_row),
                                      static_cast<std::uint16_t>(dst_row * 8),
                                      static_cast<std::uint16_t>(src_row * 8)};
    std::uint32_t r = 0;
    for (; r + 8 <= rows;) {
      const std::uint32_t rep = (rows - r) / 8 < 255 ? (rows - r) / 8 : 255;
      AscendC::Copy(dst[r * dst_row * kB], src[r * src_row * kB], 8 * kB,
                    static_cast<std::uint8_t>(rep), p);
      r += rep * 8;
    }
    if (r < rows)
      AscendC::Copy(dst[r * dst_row * kB], src[r * src_row * kB], (rows - r) * kB, 1, p);
    return;
  }
  for (std::uint32_t r = 0; r < rows; ++r)
    ub_copy(dst[r * dst_row * kB], src[r * src_row * kB], blocks * kB);
}

}  // namespace npusim::ascendc
