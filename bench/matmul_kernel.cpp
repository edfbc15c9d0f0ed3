// SPDX-License-Identifier: Apache-2.0
// Benchmark kernel: C (M x N, half, row-major) = A (M x K) * B (K x N), half row-major inputs,
// written the way Ascend C cube kernels are: base tiles of 128 x 256 (C) with K steps of 64,
// L1 and L0A/L0B double buffered (queues of depth 2), fp32 accumulation in L0C (128 KiB: the
// whole L0C), one tile at a time per core. Block b computes tiles b, b + blockDim, ... (row-major
// over the (M / 128) x (N / 256) tiles of C):
//   GM -(DataCopy ND2NZ, MTE2)-> L1 -(LoadData, MTE1; B fractals transposed)-> L0A/L0B
//   -(Mmad, M pipe, fp32 accumulate in L0C)-> ... -(Fixpipe F322F16, NZ -> ND)-> GM.
// Per K step a block issues 2 MTE2 + kM1 + kK1 MTE1 + 1 M instructions, plus 1 FIXPIPE per tile
// (bench_matmul_instrs()).
#include "kernel_operator.h"

namespace {

using namespace AscendC;

constexpr uint32_t kBaseM = 128, kBaseN = 256, kBaseK = 64;
constexpr uint32_t kM1 = kBaseM / 16, kN1 = kBaseN / 16, kK1 = kBaseK / 16;

class Matmul {
 public:
  __aicore__ void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k) {
    m_ = m;
    n_ = n;
    k_ = k;
    a_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    c_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(c));
    pipe_.InitBuffer(a1_, 2, kBaseM * kBaseK * sizeof(half));
    pipe_.InitBuffer(b1_, 2, kBaseK * kBaseN * sizeof(half));
    pipe_.InitBuffer(a2_, 2, kBaseM * kBaseK * sizeof(half));
    pipe_.InitBuffer(b2_, 2, kBaseK * kBaseN * sizeof(half));
    pipe_.InitBuffer(c1_, 1, kBaseM * kBaseN * sizeof(float));
  }

  __aicore__ void Process() {
    const uint32_t tiles_n = n_ / kBaseN;
    const uint32_t tiles = (m_ / kBaseM) * tiles_n;
    for (uint32_t t = static_cast<uint32_t>(GetBlockIdx()); t < tiles;
         t += static_cast<uint32_t>(GetBlockNum())) {
      const uint64_t row = static_cast<uint64_t>(t / tiles_n) * kBaseM;
      const uint64_t col = static_cast<uint64_t>(t % tiles_n) * kBaseN;
      LocalTensor<float> acc = c1_.AllocTensor<float>();
      for (uint32_t step = 0; step < k_ / kBaseK; ++step) {
        CopyIn(row, col, step);
        Split();
        Compute(acc, step == 0);
      }
      c1_.EnQue(acc);
      CopyOut(row, col);
    }
  }

 private:
  __aicore__ void CopyIn(uint64_t row, uint64_t col, uint32_t step) {
    LocalTensor<half> a1 = a1_.AllocTensor<half>();
    LocalTensor<half> b1 = b1_.AllocTensor<half>();
    DataCopy(a1, a_gm_[row * k_ + step * kBaseK],
             Nd2NzParams(1, kBaseM, kBaseK, 0, k_, kBaseM, 1, 0));
    DataCopy(b1, b_gm_[static_cast<uint64_t>(step) * kBaseK * n_ + col],
             Nd2NzParams(1, kBaseK, kBaseN, 0, n_, kBaseK, 1, 0));
    a1_.EnQue(a1);
    b1_.EnQue(b1);
  }

  __aicore__ void Split() {
    LocalTensor<half> a1 = a1_.DeQue<half>();
    LocalTensor<half> a2 = a2_.AllocTensor<half>();
    for (uint32_t i = 0; i < kM1; ++i) {  // NZ -> zZ: one row of fractals per call
      LoadData(a2[i * kK1 * 256], a1, LoadData2DParams(i, kK1, kM1, 0, 0, false, 0));
    }
    a2_.EnQue(a2);
    a1_.FreeTensor(a1);
    LocalTensor<half> b1 = b1_.DeQue<half>();
    LocalTensor<half> b2 = b2_.AllocTensor<half>();
    for (uint32_t i = 0; i < kK1; ++i) {  // NZ -> nZ: transpose each fractal
      LoadData(b2[i * kN1 * 256], b1, LoadData2DParams(i, kN1, kK1, 0, 0, true, 0));
    }
    b2_.EnQue(b2);
    b1_.FreeTensor(b1);
  }

  __aicore__ void Compute(const LocalTensor<float>& acc, bool first) {
    LocalTensor<half> a2 = a2_.DeQue<half>();
    LocalTensor<half> b2 = b2_.DeQue<half>();
    MmadParams p;
    p.m = kBaseM;
    p.n = kBaseN;
    p.k = kBaseK;
    p.cmatrixInitVal = first;
    Mmad(acc, a2, b2, p);
    a2_.FreeTensor(a2);
    b2_.FreeTensor(b2);
  }

  __aicore__ void CopyOut(uint64_t row, uint64_t col) {
    LocalTensor<float> acc = c1_.DeQue<float>();
    FixpipeParamsV220 p(kBaseN, kBaseM, kBaseM, n_, false);
    p.quantPre = QuantMode_t::F322F16;
    Fixpipe(c_gm_[row * n_ + col], acc, p);
    c1_.FreeTensor(acc);
  }

  TPipe pipe_;
  TQue<TPosition::A1, 2> a1_;
  TQue<TPosition::B1, 2> b1_;
  TQue<TPosition::A2, 2> a2_;
  TQue<TPosition::B2, 2> b2_;
  TQue<TPosition::CO1, 1> c1_;
  GlobalTensor<half> a_gm_, b_gm_, c_gm_;
  uint32_t m_ = 0, n_ = 0, k_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void bench_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m,
                                                   uint32_t n, uint32_t k) {
  Matmul op;
  op.Init(a, b, c, m, n, k);
  op.Process();
}

/// Tiles of C for an (m x k) * (k x n) product (m a multiple of 128, n of 256, k of 64).
uint32_t bench_matmul_tiles(uint32_t m, uint32_t n) { return (m / kBaseM) * (n / kBaseN); }

/// Pipe instructions the whole launch replays.
long bench_matmul_instrs(uint32_t m, uint32_t n, uint32_t k) {
  return static_cast<long>(bench_matmul_tiles(m, n)) *
         (static_cast<long>(k / kBaseK) * (2 + kM1 + kK1 + 1) + 1);
}

/// Launches the kernel on `blocks` blocks (at most one per tile).
int32_t bench_matmul_do(void* stream, uint32_t blocks, void* a, void* b, void* c, uint32_t m,
                        uint32_t n, uint32_t k) {
  return bench_matmul<<<blocks, nullptr, stream>>>(static_cast<GM_ADDR>(a),
                                                   static_cast<GM_ADDR>(b),
                                                   static_cast<GM_ADDR>(c), m, n, k);
}
