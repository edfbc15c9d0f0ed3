// SPDX-License-Identifier: Apache-2.0
// Kernels for scalar_counter_test.cpp; this file is built with -fsanitize-coverage=trace-pc,
// as the toolchain builds kernel sources, so its basic blocks are counted.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scalar_loop(GM_ADDR out, uint32_t n) {
  float acc = 0.0f;
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 3 == 0) {
      acc = acc * 0.5f + 1.0f;
    } else {
      acc += 2.0f;
    }
  }
  reinterpret_cast<__gm__ float*>(out)[block_idx] = acc;
}

extern "C" __global__ __aicore__ void vector_only(GM_ADDR, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TBuf<> buf;
  pipe.InitBuffer(buf, 4096 * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::Duplicate(t, 1.0f, static_cast<int32_t>(n));
  AscendC::Add(t, t, t, static_cast<int32_t>(n));
  AscendC::Exp(t, t, static_cast<int32_t>(n));
}
