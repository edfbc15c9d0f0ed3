// SPDX-License-Identifier: Apache-2.0
// Benchmark kernel: C (M x N, half, row-major) = A (M x K) * B (K x N), half row-major inputs,
// the usual Ascend C cube pipeline. Block b computes the 64 x 64 tile (b / (N/64), b % (N/64))
// and walks K in steps of 64:
//   GM -(DataCopy ND2NZ, MTE2)-> L1 -(LoadData, MTE1; B fractals transposed)-> L0A/L0B
//   -(Mmad, M pipe, fp32 accumulate in L0C)-> ... -(Fixpipe F322F16, NZ -> ND)-> GM.
// Per K step a block replays 2 MTE2 + kM1 + kK1 MTE1 + 1 M instructions, plus 1 FIXPIPE at the
// end (matmul_instrs_per_block()).
#include "kernel_operator.h"

namespace {

using namespace AscendC;

constexpr uint32_t kBaseM = 64, kBaseN = 64, kBaseK = 64;
constexpr uint32_t kM1 = kBaseM / 16, kN1 = kBaseN / 16, kK1 = kBaseK / 16;

class Matmul {
 public:
  __aicore__ void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t n, uint32_t k) {
    n_ = n;
    k_ = k;
    const uint32_t tm = static_cast<uint32_t>(GetBlockIdx()) / (n / kBaseN);
    const uint32_t tn = static_cast<uint32_t>(GetBlockIdx()) % (n / kBaseN);
    a_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) +
                          static_cast<uint64_t>(tm) * kBaseM * k);
    b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + tn * kBaseN);
    c_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(c) +
                          static_cast<uint64_t>(tm) * kBaseM * n + tn * kBaseN);
    pipe_.InitBuffer(a1_, 2, kBaseM * kBaseK * sizeof(half));
    pipe_.InitBuffer(b1_, 2, kBaseK * kBaseN * sizeof(half));
    pipe_.InitBuffer(a2_, 1, kBaseM * kBaseK * sizeof(half));
    pipe_.InitBuffer(b2_, 1, kBaseK * kBaseN * sizeof(half));
    pipe_.InitBuffer(c1_, 1, kBaseM * kBaseN * sizeof(float));
  }

  __aicore__ void Process() {
    LocalTensor<float> acc = c1_.AllocTensor<float>();
    for (uint32_t step = 0; step < k_ / kBaseK; ++step) {
      CopyIn(step);
      Split();
      Compute(acc, step == 0);
    }
    c1_.EnQue(acc);
    CopyOut();
  }

 private:
  __aicore__ void CopyIn(uint32_t step) {
    LocalTensor<half> a1 = a1_.AllocTensor<half>();
    LocalTensor<half> b1 = b1_.AllocTensor<half>();
    DataCopy(a1, a_gm_[step * kBaseK], Nd2NzParams(1, kBaseM, kBaseK, 0, k_, kBaseM, 1, 0));
    DataCopy(b1, b_gm_[static_cast<uint64_t>(step) * kBaseK * n_],
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

  __aicore__ void CopyOut() {
    LocalTensor<float> acc = c1_.DeQue<float>();
    FixpipeParamsV220 p(kBaseN, kBaseM, kBaseM, n_, false);
    p.quantPre = QuantMode_t::F322F16;
    Fixpipe(c_gm_, acc, p);
    c1_.FreeTensor(acc);
  }

  TPipe pipe_;
  TQue<TPosition::A1, 2> a1_;
  TQue<TPosition::B1, 2> b1_;
  TQue<TPosition::A2, 1> a2_;
  TQue<TPosition::B2, 1> b2_;
  TQue<TPosition::CO1, 1> c1_;
  GlobalTensor<half> a_gm_, b_gm_, c_gm_;
  uint32_t n_ = 0, k_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void bench_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t n,
                                                   uint32_t k) {
  Matmul op;
  op.Init(a, b, c, n, k);
  op.Process();
}

/// Blocks of a (m x k) * (k x n) launch: one per 64 x 64 tile of C (m, n, k multiples of 64).
uint32_t bench_matmul_blocks(uint32_t m, uint32_t n) { return (m / kBaseM) * (n / kBaseN); }

/// Pipe instructions one block replays for depth k.
long bench_matmul_instrs_per_block(uint32_t k) {
  return static_cast<long>(k / kBaseK) * (2 + kM1 + kK1 + 1) + 1;
}

int32_t bench_matmul_do(void* stream, void* a, void* b, void* c, uint32_t m, uint32_t n,
                        uint32_t k) {
  return bench_matmul<<<bench_matmul_blocks(m, n), nullptr, stream>>>(
      static_cast<GM_ADDR>(a), static_cast<GM_ADDR>(b), static_cast<GM_ADDR>(c), n, k);
}
