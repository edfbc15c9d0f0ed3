// SPDX-License-Identifier: Apache-2.0
// Kernels of the watchdog tests, built like the toolchain builds kernels (-fsanitize-coverage=
// trace-pc: scalar work counted per basic block, and the watchdog checked there).
#include "kernel_operator.h"

namespace {

// Never ends: the watchdog must stop it.
__global__ __aicore__ void endless(GM_ADDR x) {
  volatile int32_t* p = reinterpret_cast<__gm__ volatile int32_t*>(x);
  for (;;) p[0] = p[0] + 1;
}

}  // namespace

int32_t EndlessDo(uint32_t block_dim, void* stream, void* x) {
  return npusim::ascendc::launch(endless, "endless", block_dim, nullptr, stream,
                                static_cast<GM_ADDR>(x));
}
