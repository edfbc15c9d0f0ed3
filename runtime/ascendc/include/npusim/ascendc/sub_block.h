// SPDX-License-Identifier: Apache-2.0
// The identity of the sub-block a mixed AIC/AIV kernel's code runs on (g_coreType, the sub-block
// queries: mix_ops.h), kept small because every kernel source includes it; how mix launches run
// is mix_launch.h.
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"

/// The core the running kernel code is on (CANN's g_coreType): AscendC::AIC or AscendC::AIV.
/// AIV for kernels not declared __mix__ or __cube__.
extern NPUSIM_KERNEL_API thread_local std::int32_t g_coreType;

// A source npusim-asc builds once per core type (core_pass.h) sees g_coreType as the constant of
// the build being compiled: 1 (AIC) or 2 (AIV), usable in `if constexpr` and template arguments.
#ifdef NPUSIM_ASC_CORE_PASS
static_assert(NPUSIM_ASC_CORE_PASS == 1 || NPUSIM_ASC_CORE_PASS == 2,
              "NPUSIM_ASC_CORE_PASS is 1 (the AIC build) or 2 (the AIV build)");
#define g_coreType NPUSIM_ASC_CORE_PASS
#endif

namespace npusim::ascendc {

constexpr std::int32_t kCoreAic = 1;  // g_coreType values (AscendC::AIC / AscendC::AIV)
constexpr std::int32_t kCoreAiv = 2;

/// __mix__(cube, vector): the AIC and AIV sub-blocks of one block.
struct MixShape {
  std::uint32_t cube = 0;
  std::uint32_t vector = 0;
  std::uint32_t per_block() const { return cube + vector; }
};

/// Thrown by kernel_mix() when the launcher runs a mix kernel as a plain block (before the body
/// does anything): the launcher runs the launch as a mix launch instead. Not a KernelError.
struct MixKernel {
  MixShape shape;
};

class MixLaunch;

/// The identity of the sub-block running on this thread (a plain block: the defaults).
struct SubBlock {
  std::int32_t core_type = kCoreAiv;
  std::uint32_t sub_idx = 0;
  std::uint32_t sub_num = 1;
  std::uint32_t ratio = 1;   // GetTaskRation(): AIVs per AIC on the AIV of a 1:2 kernel
  std::uint32_t member = 0;  // its index in the launch's BlockGroup
  std::uint32_t block = 0;   // the block it belongs to
  MixLaunch* launch = nullptr;
};

namespace detail {
extern NPUSIM_KERNEL_API thread_local SubBlock tls_sub;
}  // namespace detail

/// The running sub-block (defaults outside a mix launch).
inline const SubBlock& current_sub_block() { return detail::tls_sub; }

/// The kernel's first statement for __mix__(cube, vector) kernels (the launch rewrite inserts
/// it): MixKernel outside a mix launch; KernelError for a shape Atlas A2/A3 cannot run.
NPUSIM_KERNEL_API void kernel_mix(std::uint32_t cube, std::uint32_t vector);

}  // namespace npusim::ascendc
