// SPDX-License-Identifier: Apache-2.0
// Device behaviour kernels: a trap raised by one block, and printf from every block.
#include "kernel_operator.h"
#include "e2e_kernels.h"

#ifndef E2E_PRINT_TAG_BASE
#error "ascendc_compile_definitions() did not reach the kernel sources"
#endif

// Every block marks its slot; block 1 then executes a trap instruction.
extern "C" __global__ __aicore__ void trap_kernel(__gm__ uint32_t* marks) {
  const int64_t idx = AscendC::GetBlockIdx();
  marks[idx] = 1;
  if (idx == 1) {
    asm volatile("trap");
  }
}

// Two lines per block, with integer, unsigned, float and string arguments.
extern "C" __global__ __aicore__ void print_kernel(uint32_t tag) {
  const int32_t idx = static_cast<int32_t>(AscendC::GetBlockIdx());
  AscendC::printf("tag %u block %d of %d\n", tag + E2E_PRINT_TAG_BASE, idx,
                  static_cast<int32_t>(AscendC::GetBlockNum()));
  AscendC::printf("tag %u block %d says %s %.2f\n", tag + E2E_PRINT_TAG_BASE, idx, "half",
                  0.5f * static_cast<float>(idx));
}

int32_t TrapDo(uint32_t blockDim, void* stream, uint32_t* marks) {
  return trap_kernel<<<blockDim, nullptr, stream>>>(marks);
}

int32_t PrintDo(uint32_t blockDim, void* stream, uint32_t tag) {
  return print_kernel<<<blockDim, nullptr, stream>>>(tag);
}
