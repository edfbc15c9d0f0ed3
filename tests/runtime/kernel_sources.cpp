// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels of the runtime tests, compiled into the test program like an
// ascendc_library(STATIC) kernel source; the *Do wrappers launch them through the `<<<>>>` seam
// (npusim::ascendc::launch is what rewrite_launch.py turns `K<<<b, l2, s>>>(...)` into).
#include "tests/runtime/kernel_sources.h"

#include "kernel_operator.h"

namespace {

__global__ __aicore__ void fill(GM_ADDR out, int32_t value) {
  reinterpret_cast<__gm__ int32_t*>(out)[block_idx] = value + static_cast<int32_t>(block_idx);
}

__global__ __aicore__ void hello(int32_t tag) {
  AscendC::printf("hello %d from block %d of %d\n", tag,
                  static_cast<int32_t>(AscendC::GetBlockIdx()),
                  static_cast<int32_t>(AscendC::GetBlockNum()));
}

__global__ __aicore__ void add_one(GM_ADDR x) { reinterpret_cast<__gm__ int32_t*>(x)[0] += 1; }

__global__ __aicore__ void trap_kernel() {
  AscendC::printf("before the trap %d\n", static_cast<int32_t>(block_idx));
  asm("trap");
}

// A __cube__ kernel that traps before any instruction (npusim-asc's rewrite inserts the
// kernel_core call; this file is not rewritten).
__global__ __cube__ void cube_trap_kernel() {
  npusim::ascendc::kernel_core("AIC");
  asm("trap");
}

// Stores through GlobalTensor::SetValue, which checks the address against the runtime's memory.
__global__ __aicore__ void store_checked(GM_ADDR out, int32_t value) {
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 1);
  g.SetValue(0, value);
}

// A raw __gm__ store, unchecked by the twin (as sample kernels write their outputs).
__global__ __aicore__ void store_raw(GM_ADDR out, uint64_t offset, int32_t value) {
  *reinterpret_cast<__gm__ int32_t*>(out + offset) = value;
}

// Integer division and remainder with run-time operands (the host CPU traps on a zero divisor).
// Exempt from UBSan: the sanitizer build would stop at the division the test makes on purpose.
__attribute__((no_sanitize("undefined"))) __global__ __aicore__ void divide(GM_ADDR out, int32_t a, int32_t b, int64_t x, int64_t y,
                                  uint32_t u, uint32_t v) {
  auto* o = reinterpret_cast<__gm__ int64_t*>(out);
  o[0] = a / b;
  o[1] = a % b;
  o[2] = x / y;
  o[3] = x % y;
  o[4] = u / v;
  o[5] = u % v;
}

// Copies 256 halves from GM into L1 (a cube-side memory): the kernel shows up as AIC.
__global__ __aicore__ void to_l1(GM_ADDR src) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::A1> buf;
  pipe.InitBuffer(buf, 512);
  AscendC::LocalTensor<half> l1 = buf.Get<half>();
  AscendC::GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(src), 256);
  AscendC::DataCopy(l1, g, 256);
}

// Takes `bytes` of UB through TPipe::InitBuffer.
__global__ __aicore__ void ub_hog(uint32_t bytes) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, bytes);
}

}  // namespace

int32_t UbHogDo(uint32_t block_dim, void* stream, uint32_t bytes) {
  return npusim::ascendc::launch(ub_hog, "ub_hog", block_dim, nullptr, stream, bytes);
}

int32_t FillDo(uint32_t block_dim, void* stream, int32_t* out, int32_t value) {
  return npusim::ascendc::launch(fill, "fill", block_dim, nullptr, stream,
                                reinterpret_cast<GM_ADDR>(out), value);
}

int32_t HelloDo(uint32_t block_dim, void* stream, int32_t tag) {
  return npusim::ascendc::launch(hello, "hello", block_dim, nullptr, stream, tag);
}

int32_t AddOneDo(uint32_t block_dim, void* stream, int32_t* x) {
  return npusim::ascendc::launch(add_one, "add_one", block_dim, nullptr, stream,
                                reinterpret_cast<GM_ADDR>(x));
}

int32_t TrapDo(uint32_t block_dim, void* stream) {
  return npusim::ascendc::launch(trap_kernel, "trap_kernel", block_dim, nullptr, stream);
}

int32_t CubeTrapDo(uint32_t block_dim, void* stream) {
  return npusim::ascendc::launch(cube_trap_kernel, "cube_trap_kernel", block_dim, nullptr, stream);
}

int32_t StoreCheckedDo(uint32_t block_dim, void* stream, void* out, int32_t value) {
  return npusim::ascendc::launch(store_checked, "store_checked", block_dim, nullptr, stream,
                                static_cast<GM_ADDR>(out), value);
}

int32_t StoreRawDo(uint32_t block_dim, void* stream, void* out, uint64_t offset, int32_t value) {
  return npusim::ascendc::launch(store_raw, "store_raw", block_dim, nullptr, stream,
                                static_cast<GM_ADDR>(out), offset, value);
}

int32_t DivideDo(void* stream, void* out, int32_t a, int32_t b, int64_t x, int64_t y, uint32_t u,
                 uint32_t v) {
  return npusim::ascendc::launch(divide, "divide", 1, nullptr, stream, static_cast<GM_ADDR>(out),
                                a, b, x, y, u, v);
}

int32_t ToL1Do(uint32_t block_dim, void* stream, void* src) {
  return npusim::ascendc::launch(to_l1, "to_l1", block_dim, nullptr, stream,
                                static_cast<GM_ADDR>(src));
}
