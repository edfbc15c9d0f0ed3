// SPDX-License-Identifier: Apache-2.0
// Cube path: a tiled fp16 matmul (ND2NZ DataCopy, LoadData with and without fractal transpose,
// Mmad accumulating over K, Fixpipe NZ->ND to float or half) on 6 blocks, and an int8 Mmad.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "npusim/ascendc/block_runner.h"
#include "test_kernels.h"

namespace {

constexpr std::uint32_t kM = 64, kN = 96, kK = 256;

struct Problem {
  std::vector<half> a, b;
  std::vector<double> ref;      // exact products summed in double
  std::vector<double> abs_ref;  // sum of |a*b| (error scale)
};

Problem make_problem() {
  Problem p;
  p.a.resize(kM * kK);
  p.b.resize(kK * kN);
  for (std::uint32_t i = 0; i < p.a.size(); ++i)
    p.a[i] = half(std::sin(0.1f * static_cast<float>(i)));
  for (std::uint32_t i = 0; i < p.b.size(); ++i)
    p.b[i] = half(std::cos(0.07f * static_cast<float>(i)) * 0.5f);
  p.ref.assign(kM * kN, 0.0);
  p.abs_ref.assign(kM * kN, 0.0);
  for (std::uint32_t m = 0; m < kM; ++m) {
    for (std::uint32_t n = 0; n < kN; ++n) {
      for (std::uint32_t k = 0; k < kK; ++k) {
        const double prod = static_cast<double>(static_cast<float>(p.a[m * kK + k])) *
                            static_cast<float>(p.b[k * kN + n]);
        p.ref[m * kN + n] += prod;
        p.abs_ref[m * kN + n] += std::fabs(prod);
      }
    }
  }
  return p;
}

// tiled_matmul of p's operands into c, one block per 32 x 32 tile of the output.
template <class Out>
void run_tiled(Problem& p, std::vector<Out>& c) {
  const std::uint32_t blocks = (kM / 32) * (kN / 32);
  auto r = npusim::ascendc::run_blocks(
      &test_kernels::tiled_matmul<Out>, blocks, reinterpret_cast<GM_ADDR>(p.a.data()),
      reinterpret_cast<GM_ADDR>(p.b.data()), reinterpret_cast<GM_ADDR>(c.data()), kM, kN, kK);
  ASSERT_TRUE(r.ok()) << r.first_error();
}

TEST(Matmul, TiledFp16WithFloatOutput) {
  Problem p = make_problem();
  std::vector<float> c(kM * kN, NAN);
  ASSERT_NO_FATAL_FAILURE(run_tiled(p, c));
  for (std::uint32_t i = 0; i < c.size(); ++i) {
    // fp32 accumulation of exact products: error <= K * 2^-24 * sum|a*b|.
    ASSERT_NEAR(c[i], p.ref[i], kK * std::ldexp(1.0, -24) * p.abs_ref[i] + 1e-30) << i;
  }
}

TEST(Matmul, TiledFp16WithHalfOutputIsWithinHalfPrecision) {
  Problem p = make_problem();
  std::vector<half> c(kM * kN);
  ASSERT_NO_FATAL_FAILURE(run_tiled(p, c));
  for (std::uint32_t i = 0; i < c.size(); ++i) {
    const double tol =
        std::ldexp(std::fabs(p.ref[i]), -11) + kK * std::ldexp(1.0, -24) * p.abs_ref[i] + 1e-7;
    ASSERT_NEAR(static_cast<float>(c[i]), p.ref[i], tol) << i;
  }
}

// int8 x int8 -> int32, fractals prepared in L0 layout in GM and loaded with LoadData GM -> L0.
__global__ __aicore__ void int8_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  using namespace AscendC;
  TPipe pipe;
  TQue<TPosition::A2, 1> qa;
  TQue<TPosition::B2, 1> qb;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa, 1, 512);
  pipe.InitBuffer(qb, 1, 512);
  pipe.InitBuffer(qc, 1, 16 * 16 * 4);
  GlobalTensor<std::int8_t> ga, gb;
  GlobalTensor<std::int32_t> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ std::int8_t*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ std::int8_t*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ std::int32_t*>(c));
  LocalTensor<std::int8_t> la = qa.AllocTensor<std::int8_t>();
  LocalTensor<std::int8_t> lb = qb.AllocTensor<std::int8_t>();
  LoadData(la, ga, LoadData2DParams(0, 1, 0, 0, 0, false, 0));
  LoadData(lb, gb, LoadData2DParams(0, 1, 0, 0, 0, false, 0));
  qa.EnQue(la);
  qb.EnQue(lb);
  la = qa.DeQue<std::int8_t>();
  lb = qb.DeQue<std::int8_t>();
  LocalTensor<std::int32_t> lc = qc.AllocTensor<std::int32_t>();
  Mmad(lc, la, lb, MmadParams(16, 16, 32, false, 0, false, false, false));
  qc.EnQue(lc);
  lc = qc.DeQue<std::int32_t>();
  Fixpipe(gc, lc, FixpipeParamsV220(16, 16, 16, 16, false));
  qa.FreeTensor(la);
  qb.FreeTensor(lb);
  qc.FreeTensor(lc);
}

TEST(Matmul, Int8AccumulatesExactlyInInt32) {
  // A: 16 x 32 (one zZ fractal, row-major). B: 32 x 16 (one nZ fractal, column-major).
  std::vector<std::int8_t> a(16 * 32), b(32 * 16);
  std::vector<std::int32_t> c(16 * 16, -1);
  auto av = [](int m, int k) { return static_cast<std::int8_t>(((m * 37 + k * 11) % 255) - 127); };
  auto bv = [](int k, int n) { return static_cast<std::int8_t>(((k * 13 + n * 29) % 255) - 127); };
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 32; ++k) a[m * 32 + k] = av(m, k);
  for (int k = 0; k < 32; ++k)
    for (int n = 0; n < 16; ++n) b[n * 32 + k] = bv(k, n);
  auto r = npusim::ascendc::run_blocks(&int8_mmad, 1, reinterpret_cast<GM_ADDR>(a.data()),
                                      reinterpret_cast<GM_ADDR>(b.data()),
                                      reinterpret_cast<GM_ADDR>(c.data()));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int m = 0; m < 16; ++m) {
    for (int n = 0; n < 16; ++n) {
      std::int32_t ref = 0;
      for (int k = 0; k < 32; ++k) ref += av(m, k) * bv(k, n);
      ASSERT_EQ(c[m * 16 + n], ref) << m << "," << n;
    }
  }
}

}  // namespace
