// SPDX-License-Identifier: Apache-2.0
// npusim's aicpu_api.h: what AI CPU kernel sources (.aicpu) and the host sources that launch them
// (.asc) include. An AI CPU kernel is `__global__ __aicpu__ uint32_t Kernel(void* args)` (extern
// "C" or not), defined in a .aicpu source built by aicpu_kernel_library() and declared extern in
// the launching source, which writes `Kernel<<<numBlocks, nullptr, stream>>>(&args, sizeof(args))`
// (rewritten by ascendc_library like any launch: npusim/ascendc/launch.h). Both qualifiers are
// empty for the host compiler. In AI CPU kernel sources (NPUSIM_AICPU_KERNEL, set by
// aicpu_kernel_library) AscendC::printf writes to stdout when the kernel runs.
#ifndef NPUSIM_AICPU_API_H_
#define NPUSIM_AICPU_API_H_

#include <cstdint>
#include <cstdio>

#include "npusim/ascendc/launch.h"
#include "npusim/ascendc/qualifiers.h"

#ifdef NPUSIM_AICPU_KERNEL
#include <atomic>

namespace AscendC {
/// Orders the kernel's earlier stores before its later memory accesses (the AI CPU's store
/// barrier): a full fence on the host.
inline void DataStoreBarrier() { std::atomic_thread_fence(std::memory_order_seq_cst); }

template <class... A>
void printf(const char* fmt, A... args) {
  if constexpr (sizeof...(A) == 0) {
    std::fputs(fmt, stdout);
  } else {
    std::printf(fmt, args...);
  }
}
}  // namespace AscendC
#endif

#endif  // NPUSIM_AICPU_API_H_
