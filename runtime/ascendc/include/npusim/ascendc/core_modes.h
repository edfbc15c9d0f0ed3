// SPDX-License-Identifier: Apache-2.0
// AI Core mode registers that template libraries (CATLASS) set around their matmuls:
//   SetHF32Mode(enable)        float Mmad in HF32 (inputs rounded to a shorter mantissa) or in
//                              full float. false: full float, the twin's Mmad. true: a kernel
//                              error naming SetHF32Mode (HF32 rounding is not simulated).
//   SetMMLayoutTransform(on)   the order in which Mmad walks its output fractals (N first or M
//                              first). Results do not depend on it, and the twin's cube timing
//                              does not model the order: both values are accepted, nothing changes.
//   SetSyncBaseAddr(addr)      the GM address of the hardware synchronisation area that SyncAll
//                              and CATLASS's cross-core barriers use on the device. The twin's
//                              synchronisation (sync_ops.h, mix_ops.h) needs no memory: accepted.
// Timing: each is a scalar register write, counted like the kernel's other scalar code; none
// records a pipe instruction.
#pragma once

#include <cstdint>

#include "npusim/ascendc/tensor.h"

namespace AscendC {

inline void SetHF32Mode(bool enable) {
  if (enable) {
    npusim::ascendc::fail("SetHF32Mode", "HF32 mode (float Mmad with rounded inputs) is not "
                          "simulated; the twin's Mmad computes in full float");
  }
}

inline void SetMMLayoutTransform(bool /*n_first*/) {}

inline void SetSyncBaseAddr(std::uint64_t /*gm_addr*/) {}

}  // namespace AscendC
