// SPDX-License-Identifier: Apache-2.0
// The kernel side of mixed AIC/AIV kernels (__mix__(cube, vector); how they run: mix_launch.h):
//   g_coreType, AscendC::AIC / AIV, ASCEND_IS_AIC / ASCEND_IS_AIV / ASCEND_IS_NOT_AIC /
//   ASCEND_IS_NOT_AIV     which core the code runs on (AIV outside __mix__ and __cube__ kernels)
//   GetSubBlockIdx / GetSubBlockNum / GetTaskRation / GetTaskRatio   the sub-block queries
//   CrossCoreSetFlag<mode, pipe>(flag)  signals flag (its low 4 bits) once the earlier work of
//                          `pipe` has completed: a kSyncSet instruction on that pipe. Modes:
//                          0 all AICs (or all AIVs) of the launch; 1 the AIVs of one AI Core;
//                          2 an AI Core's AIC and its AIVs (the AIC's set reaches each AIV, the
//                          AIVs' sets together reach the AIC). When every member of the mode's
//                          scope has set the flag (its n-th time), the flag counter of each
//                          receiver goes up by one (above 15: a kernel error)
//   CrossCoreWaitFlag(flag)   waits until the flag counter of this core is above 0 and takes
//                          one (modeId and pipe are ignored on Atlas A2/A3: the wait blocks every
//                          pipe): a kSyncWait instruction on the scalar unit that starts after
//                          the sets it waited for have ended (deps within the block,
//                          block_deps across blocks). A wait no set can ever satisfy is a kernel
//                          error ("deadlock: CrossCoreWaitFlag..."), never a hang.
// Both are kernel errors outside a __mix__ kernel (CANN: the hardware has no cross-core
// scheduler for AIC-only or AIV-only kernels).
#pragma once

#include <cstdint>

#include "npusim/ascendc/sub_block.h"
#include "npusim/ascendc/tpipe.h"

namespace npusim::ascendc {

NPUSIM_KERNEL_API void cross_core_set(std::uint32_t mode, Pipe pipe, std::uint32_t flag);
NPUSIM_KERNEL_API void cross_core_wait(std::uint32_t flag);

constexpr Pipe cross_core_pipe(pipe_t p) {
  switch (p) {
    case PIPE_V: return Pipe::kVector;
    case PIPE_M: return Pipe::kCube;
    case PIPE_MTE1: return Pipe::kMte1;
    case PIPE_MTE2: return Pipe::kMte2;
    case PIPE_MTE3: return Pipe::kMte3;
    default: return Pipe::kFixpipe;
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

constexpr std::int32_t AIC = npusim::ascendc::kCoreAic;
constexpr std::int32_t AIV = npusim::ascendc::kCoreAiv;

inline std::int64_t GetSubBlockIdx() { return npusim::ascendc::current_sub_block().sub_idx; }
inline std::int64_t GetSubBlockNum() { return npusim::ascendc::current_sub_block().sub_num; }
inline std::int64_t GetTaskRation() { return npusim::ascendc::current_sub_block().ratio; }
inline std::int64_t GetTaskRatio() { return npusim::ascendc::current_sub_block().ratio; }

template <std::uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(std::uint16_t flagId) {
  static_assert(modeId <= 2, "CrossCoreSetFlag: Atlas A2/A3 have modes 0, 1 and 2");
  static_assert(pipe == PIPE_V || pipe == PIPE_M || pipe == PIPE_MTE1 || pipe == PIPE_MTE2 ||
                    pipe == PIPE_MTE3 || pipe == PIPE_FIX,
                "CrossCoreSetFlag: the pipe is one of PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, "
                "PIPE_MTE3, PIPE_FIX");
  npusim::ascendc::cross_core_set(modeId, npusim::ascendc::cross_core_pipe(pipe), flagId);
}

template <std::uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(std::uint16_t flagId) {
  npusim::ascendc::cross_core_wait(flagId);
}

}  // namespace AscendC

#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)
