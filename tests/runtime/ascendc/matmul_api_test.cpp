// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API (lib/matmul_intf.h): values for aligned, unaligned, transposed,
// biased and multi-core shapes against a float reference, the pipes its instructions take, its
// errors, and that the block's simulated time (BlockReplay of its trace) grows with the work.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "matmul_api_kernels.h"
#include "models/aicore/block_replay.h"
#include "npusim/ascendc/block_runner.h"
#include "tests/models/aicore_bench.h"

namespace {

using npusim::ascendc::Pipe;
using npusim::ascendc::run_blocks;

/// A tiling as GetTiling would give it (the fields the Matmul reads).
TCubeTiling tiling(int m, int n, int k, int sm, int sn, int bm, int bn, int bk, bool bias) {
  TCubeTiling t{};
  t.M = m;
  t.N = n;
  t.Ka = t.Kb = k;
  t.singleCoreM = sm;
  t.singleCoreN = sn;
  t.singleCoreK = k;
  t.baseM = bm;
  t.baseN = bn;
  t.baseK = bk;
  t.isBias = bias ? 1 : 0;
  t.usedCoreNum = ((m + sm - 1) / sm) * ((n + sn - 1) / sn);
  return t;
}

struct Problem {
  int m, n, k;
  std::vector<half> a, b;  // as stored (transposed when asked)
  std::vector<float> bias, want;
};

Problem make(int m, int n, int k, bool trans_a, bool trans_b, bool bias) {
  Problem p{m, n, k, {}, {}, {}, {}};
  std::vector<float> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 7) % 11 - 5) / 4.0f;
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 5) % 13 - 6) / 8.0f;
  p.a.resize(a.size());
  p.b.resize(b.size());
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < k; ++c) p.a[trans_a ? c * m + r : r * k + c] = half(a[r * k + c]);
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < n; ++c) p.b[trans_b ? c * k + r : r * n + c] = half(b[r * n + c]);
  p.bias.assign(n, 0.0f);
  for (int j = 0; bias && j < n; ++j) p.bias[j] = static_cast<float>(j % 5) - 2.0f;
  p.want.assign(m * n, 0.0f);
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c) {
      float s = p.bias[c];
      for (int i = 0; i < k; ++i) s += a[r * k + i] * b[i * n + c];
      p.want[r * n + c] = s;
    }
  return p;
}

template <class Out>
npusim::ascendc::RunResult run(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR),
                               Problem& p, TCubeTiling t, std::vector<Out>& c) {
  c.assign(static_cast<std::size_t>(p.m) * p.n, Out(-1.0f));
  return run_blocks(kernel, static_cast<std::uint32_t>(t.usedCoreNum),
                    reinterpret_cast<GM_ADDR>(p.a.data()), reinterpret_cast<GM_ADDR>(p.b.data()),
                    reinterpret_cast<GM_ADDR>(p.bias.data()), reinterpret_cast<GM_ADDR>(c.data()),
                    reinterpret_cast<GM_ADDR>(&t));
}

template <class Out>
void expect_near(const Problem& p, const std::vector<Out>& c, float tol) {
  for (int i = 0; i < p.m * p.n; ++i)
    ASSERT_NEAR(static_cast<float>(c[i]), p.want[i], tol) << "row " << i / p.n << " col " << i % p.n;
}

TEST(MatmulApi, AlignedSingleCoreManyBlocksAndKSteps) {
  Problem p = make(64, 96, 80, false, false, false);
  std::vector<float> c;
  auto r = run(&matmul_api_kernels::matmul_f32, p, tiling(64, 96, 80, 64, 96, 32, 48, 32, false), c);
  ASSERT_TRUE(r.ok()) << r.first_error();
  expect_near(p, c, 1e-3f);
  // Per block (2 x 2) and k step (3): ND2NZ A and B on MTE2, LoadData on MTE1, Mmad on M;
  // then one Fixpipe per block.
  int mte2 = 0, mte1 = 0, cube = 0, fix = 0;
  for (const auto& in : r.blocks[0].trace.instrs) {
    mte2 += in.pipe == Pipe::kMte2;
    mte1 += in.pipe == Pipe::kMte1;
    cube += in.pipe == Pipe::kCube;
    fix += in.pipe == Pipe::kFixpipe;
  }
  EXPECT_EQ(mte2, 4 * 3 * 2);
  EXPECT_EQ(cube, 4 * 3);
  EXPECT_EQ(fix, 4);
  // LoadData: A one per 16 rows (2), B one per 16 k (2, 2 and 1 for the k steps 32, 32, 16).
  EXPECT_EQ(mte1, 4 * ((2 + 2) + (2 + 2) + (2 + 1)));
}

TEST(MatmulApi, UnalignedShapesWithBiasOnTwoByThreeCores) {
  Problem p = make(50, 88, 37, false, false, true);
  std::vector<float> c;
  auto r = run(&matmul_api_kernels::matmul_f32, p, tiling(50, 88, 37, 32, 32, 16, 32, 16, true), c);
  ASSERT_EQ(r.blocks.size(), 6u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  expect_near(p, c, 1e-3f);
}

TEST(MatmulApi, TransposedInputsToHalfOnTwoCores) {
  Problem p = make(40, 33, 70, true, true, false);
  std::vector<half> c;
  auto r = run(&matmul_api_kernels::matmul_f16_trans, p,
               tiling(40, 33, 70, 32, 33, 32, 32, 32, false), c);
  ASSERT_EQ(r.blocks.size(), 2u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  expect_near(p, c, 0.05f);
}

TEST(MatmulApi, BiasWithoutABiasTilingIsAKernelError) {
  Problem p = make(16, 16, 16, false, false, true);
  TCubeTiling t = tiling(16, 16, 16, 16, 16, 16, 16, 16, false);
  t.isBias = 0;
  std::vector<float> c;
  // The kernel calls SetBias only when the tiling has a bias: none here, so it runs; a tiling
  // with no base block is refused by Init.
  t.baseK = 0;
  auto r = run(&matmul_api_kernels::matmul_f32, p, t, c);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("Matmul::Init"), std::string::npos) << r.first_error();
}

/// The block's simulated time: its trace replayed on the reference AI Core (1 GHz).
npusim::sim::SimTime block_time(const npusim::ascendc::RunResult& r) {
  using namespace npusim::models;
  const PipeCosts costs(npusim::models::testing::aicore_config());
  BlockReplay replay(costs);
  struct Host : ReplayHost {
    void wait_until(npusim::sim::SimTime) override {}
    npusim::sim::SimTime gm_access(const npusim::ascendc::Instr&, npusim::sim::SimTime request, npusim::sim::SimTime&) override {
      return request + 100 * npusim::sim::kNs;
    }
    void instr_done(const npusim::ascendc::Instr&, int, npusim::sim::SimTime, npusim::sim::SimTime) override {}
  } host;
  return replay.run(r.blocks[0].trace, 0, false, false, host).end;
}

TEST(MatmulApi, SimulatedTimeGrowsWithTheWork) {
  std::vector<float> c;
  Problem small = make(64, 64, 64, false, false, false);
  Problem big = make(128, 128, 256, false, false, false);
  auto rs = run(&matmul_api_kernels::matmul_f32, small, tiling(64, 64, 64, 64, 64, 64, 64, 64, false), c);
  ASSERT_TRUE(rs.ok()) << rs.first_error();
  auto rb = run(&matmul_api_kernels::matmul_f32, big, tiling(128, 128, 256, 128, 128, 64, 64, 64, false), c);
  ASSERT_TRUE(rb.ok()) << rb.first_error();
  const auto ts = block_time(rs), tb = block_time(rb);
  EXPECT_GT(ts, 0u);
  EXPECT_GT(tb, 4 * ts);  // 16 times the MACs, 8 times the loads
}

}  // namespace
