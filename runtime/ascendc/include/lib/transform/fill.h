// SPDX-License-Identifier: Apache-2.0
// The Fill high-level API of the Ascend C twin: Fill(gmTensor, size, value) sets `size` elements
// of a GlobalTensor to `value` (16- and 32-bit types), e.g. to clear a workspace or an output
// before atomic accumulation.
// Timing: one Duplicate of a UB staging buffer (vector pipe), a V -> MTE3 flag, then one
// DataCopy UB -> GM (MTE3) per buffer-full (the last, when not a whole number of 32-byte blocks,
// a DataCopyPad). The staging buffer is free UB above the TPipe's buffers, held for the call
// only (at most 16 KiB; as CANN's, the call belongs before InitBuffer). The caller orders what
// follows: MTE3 -> MTE2 before reusing UB, MTE3 -> V between two Fills.
#pragma once

#include <cstdint>

#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"
#include "npusim/ascendc/vector_ops.h"

namespace npusim::ascendc {

constexpr std::uint32_t kFillStagingBytes = 16 * 1024;

template <class T>
void fill_gm(const AscendC::GlobalTensor<T>& gm, std::uint64_t size, T value) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Fill: 16- and 32-bit types");
  if (size == 0) return;
  const std::uint64_t bytes = (size * sizeof(T) + 31) / 32 * 32;
  const HighLevelTmp tmp("Fill", "free UB before InitBuffer",
                         static_cast<std::uint32_t>(bytes < kFillStagingBytes ? bytes
                                                                              : kFillStagingBytes),
                         32);
  const std::uint32_t chunk = tmp.bytes() / sizeof(T);
  const AscendC::LocalTensor<T> staging = tmp.as<T>();
  const std::uint64_t first = size < chunk ? size : chunk;
  AscendC::Duplicate(staging, value, static_cast<std::int32_t>((first * sizeof(T) + 31) / 32 * 32 /
                                                               sizeof(T)));
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
  for (std::uint64_t at = 0; at < size; at += chunk) {
    const std::uint64_t n = size - at < chunk ? size - at : chunk;
    if ((n * sizeof(T)) % 32 == 0) {
      AscendC::DataCopy(gm[at], staging, static_cast<std::uint32_t>(n));
    } else {
      AscendC::DataCopyPad(gm[at], staging,
                           AscendC::DataCopyExtParams(1, static_cast<std::uint32_t>(n * sizeof(T)),
                                                      0, 0, 0));
    }
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T>
inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const std::uint64_t size, const T value) {
  npusim::ascendc::fill_gm(gmWorkspaceAddr, size, value);
}

}  // namespace AscendC
