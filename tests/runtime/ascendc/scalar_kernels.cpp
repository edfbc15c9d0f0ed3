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

// The twin's bodies called directly, without the ScalarPause of the API functions around them:
// they are not instrumented (NPUSIM_TWIN_FN), so n does not change the count. (Not Cast: it
// rounds through half.h's conversions, which are kernel-facing and instrumented; Cast relies on
// its ScalarPause.)
extern "C" __global__ __aicore__ void twin_bodies_only(GM_ADDR out, uint32_t n) {
  namespace nk = npusim::ascendc;
  AscendC::TPipe pipe;
  AscendC::TBuf<> buf;
  pipe.InitBuffer(buf, 2 * 4096 * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::LocalTensor<float> u = t[4096];
  const auto count = static_cast<int32_t>(n);
  nk::BlockContext& ctx = nk::block();
  nk::duplicate_body(ctx, nk::operand(t), 0.5f, count);
  nk::binary_body(ctx, nk::Op::kAdd, "Add", nk::operand(u), nk::operand(t), nk::operand(t), count,
                  [](float a, float b) NPUSIM_TWIN_FN { return a + b; });
  nk::unary_body(ctx, nk::Op::kExp, "Exp", nk::operand(t), nk::operand(u), count,
                 [](float x) NPUSIM_TWIN_FN { return nk::through_float(x, nk::ExpF()); });
  nk::reduce_sum_body(ctx, nk::operand(u), nk::operand(t), u.twin_slot(), count);
  nk::reduce_extreme_body<float, true>(ctx, nk::Op::kReduceMax, "ReduceMax", nk::operand(u),
                                       nk::operand(t), u.twin_slot(), count, true);
  // n floats UB -> GM as n / 8 bursts of 32 bytes (out has room for 4096 floats)
  nk::CopyEnds e{out, reinterpret_cast<const uint8_t*>(t.twin_data()), nk::Mem::kGm, nk::Mem::kUb,
                 -1, t.twin_slot(), false, true};
  nk::copy_body(ctx, e, nk::DType::kFp32, n / 8, 32, 32, 32);
}
