// SPDX-License-Identifier: Apache-2.0
// A kernel binary as ascendc_fatbin_library builds it: a shared object exporting one
// `npusim_kernel_<name>` KernelEntry per kernel (the registrations rewrite_launch.py appends).
// It is not linked against the twin: the twin's symbols come from the loading program.
#include "kernel_operator.h"

// out[0..3] = {a, b, (int32)c, block count}; parameters of mixed sizes test the packing.
extern "C" __global__ __aicore__ void mixed(int8_t a, GM_ADDR out, int16_t b, double c) {
  auto* o = reinterpret_cast<__gm__ int32_t*>(out);
  if (block_idx == 0) {
    o[0] = a;
    o[1] = b;
    o[2] = static_cast<int32_t>(c);
  }
  o[3] += 1;
}
NPUSIM_REGISTER_KERNEL(mixed)

// out[0] = *len, out[1] = *tiles, read through GlobalTensor (checked against the runtime's memory:
// the placeholder data must be device memory).
extern "C" __global__ __aicore__ void tiling(GM_ADDR out, GM_ADDR len, GM_ADDR tiles) {
  AscendC::GlobalTensor<int32_t> l, t;
  l.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(len), 1);
  t.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(tiles), 1);
  auto* o = reinterpret_cast<__gm__ int32_t*>(out);
  o[0] = l.GetValue(0);
  o[1] = t.GetValue(0);
  AscendC::printf("tiling block %d\n", static_cast<int32_t>(block_idx));
}
NPUSIM_REGISTER_KERNEL(tiling)

extern "C" __global__ __aicore__ void boom() { asm("trap"); }
NPUSIM_REGISTER_KERNEL(boom)
