// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API (lib/matmul_intf.h): values for aligned, unaligned, transposed,
// biased and multi-core shapes against a float reference, the pipes its instructions take, its
// errors, and that the block's simulated time (BlockReplay of its trace) grows with the work;
// then its options: block order, atomic write-out, a compile-time tiling, a copy callback, the
// triangle policy, NZ output, int8 dequantisation and IterateBatch, each with its values and the
// instructions (or time) it costs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
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

/// Instructions of block `block` on `pipe` (cross-core flag sets and waits left out).
int count(const npusim::ascendc::RunResult& r, Pipe pipe, std::size_t block = 0) {
  using npusim::ascendc::Op;
  int n = 0;
  for (const auto& in : r.blocks[block].trace.instrs)
    n += in.pipe == pipe && in.op != Op::kSyncSet && in.op != Op::kSyncWait;
  return n;
}

/// Cycles of block 0's instructions on `pipe` (their PipeCosts; scalar code and waits left out,
/// so the figure does not depend on how the kernel's scalar code was compiled or instrumented).
std::uint64_t pipe_cycles(const npusim::ascendc::RunResult& r, Pipe pipe) {
  const npusim::models::PipeCosts costs(npusim::models::testing::aicore_config());
  std::uint64_t c = 0;
  for (const auto& in : r.blocks[0].trace.instrs)
    if (in.pipe == pipe) c += costs.cycles(in);
  return c;
}

/// GM addresses of block 0's Fixpipes, in issue order.
std::vector<std::uint64_t> fixpipe_addrs(const npusim::ascendc::RunResult& r) {
  std::vector<std::uint64_t> v;
  for (const auto& in : r.blocks[0].trace.instrs)
    if (in.pipe == Pipe::kFixpipe) v.push_back(in.gm_addr);
  return v;
}

TEST(MatmulApiOptions, IterateOrderNWalksNFirstSameValuesSameWork) {
  Problem p = make(64, 96, 80, false, false, false);
  const TCubeTiling t = tiling(64, 96, 80, 64, 96, 32, 48, 32, false);
  std::vector<float> cm, cn;
  auto rm = run(&matmul_api_kernels::matmul_f32, p, t, cm);
  auto rn = run(&matmul_api_kernels::matmul_order_n, p, t, cn);
  ASSERT_TRUE(rm.ok()) << rm.first_error();
  ASSERT_TRUE(rn.ok()) << rn.first_error();
  expect_near(p, cn, 1e-3f);
  const auto am = fixpipe_addrs(rm), an = fixpipe_addrs(rn);
  ASSERT_EQ(am.size(), 4u);
  ASSERT_EQ(an.size(), 4u);
  EXPECT_EQ(am[1] - am[0], 32u * 96 * sizeof(float));  // M first: the block below
  EXPECT_EQ(an[1] - an[0], 48u * sizeof(float));       // N first: the block to the right
  for (Pipe pipe : {Pipe::kMte2, Pipe::kMte1, Pipe::kCube, Pipe::kFixpipe})
    EXPECT_EQ(count(rm, pipe), count(rn, pipe));
}

TEST(MatmulApiOptions, AtomicAddAccumulatesIntoC) {
  Problem p = make(48, 64, 32, false, false, false);
  const TCubeTiling t = tiling(48, 64, 32, 32, 32, 16, 32, 32, false);
  std::vector<float> c(48 * 64, 1.5f);
  auto r = run_blocks(&matmul_api_kernels::matmul_atomic_add, static_cast<std::uint32_t>(t.usedCoreNum),
                      reinterpret_cast<GM_ADDR>(p.a.data()), reinterpret_cast<GM_ADDR>(p.b.data()),
                      reinterpret_cast<GM_ADDR>(p.bias.data()), reinterpret_cast<GM_ADDR>(c.data()),
                      reinterpret_cast<GM_ADDR>(const_cast<TCubeTiling*>(&t)));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (float& w : p.want) w += 1.5f;
  expect_near(p, c, 1e-3f);
  EXPECT_EQ(count(r, Pipe::kFixpipe), 2 * 1);  // block 0: 32 x 32 of 16 x 32 blocks
}

TEST(MatmulApiOptions, StaticTilingNeedsNoTilingAndCostsItsBlocks) {
  Problem p = make(64, 96, 80, false, false, false);
  std::vector<float> cs, cd;
  TCubeTiling none{};
  none.usedCoreNum = 1;
  auto rs = run(&matmul_api_kernels::matmul_static, p, none, cs);
  ASSERT_TRUE(rs.ok()) << rs.first_error();
  expect_near(p, cs, 1e-3f);
  // The same base blocks as the runtime tiling of the first test: the same instructions.
  auto rd = run(&matmul_api_kernels::matmul_f32, p, tiling(64, 96, 80, 64, 96, 32, 48, 32, false),
                cd);
  ASSERT_TRUE(rd.ok()) << rd.first_error();
  for (Pipe pipe : {Pipe::kMte2, Pipe::kMte1, Pipe::kCube, Pipe::kFixpipe})
    EXPECT_EQ(count(rs, pipe), count(rd, pipe));
  // Same instructions; the time differs only by the scalar work around them.
  const double ts = static_cast<double>(block_time(rs)), td = static_cast<double>(block_time(rd));
  EXPECT_NEAR(ts, td, 0.05 * td);
}

TEST(MatmulApiOptions, CopyCallbackLoadsA) {
  Problem p = make(64, 96, 80, false, false, false);
  const TCubeTiling t = tiling(64, 96, 80, 64, 96, 32, 48, 32, false);
  std::vector<float> c, cd;
  auto r = run(&matmul_api_kernels::matmul_callback_a, p, t, c);
  ASSERT_TRUE(r.ok()) << r.first_error();
  expect_near(p, c, 1e-3f);
  auto rd = run(&matmul_api_kernels::matmul_f32, p, t, cd);
  ASSERT_TRUE(rd.ok()) << rd.first_error();
  EXPECT_EQ(count(r, Pipe::kMte2), count(rd, Pipe::kMte2));  // its DataCopy is the MTE2 load
}

TEST(MatmulApiOptions, UpperTrianglePolicyComputesOnlyBlocksOnOrAboveTheDiagonal) {
  Problem p = make(64, 64, 32, false, false, false);
  std::vector<float> c;
  auto r = run(&matmul_api_kernels::matmul_upper, p, tiling(64, 64, 32, 64, 64, 16, 16, 32, false),
               c);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < 64 * 64; ++i) {
    const int bm = i / 64 / 16, bn = i % 64 / 16;
    const float want = bm <= bn ? p.want[i] : -1.0f;
    ASSERT_NEAR(c[i], want, 1e-3f) << "row " << i / 64 << " col " << i % 64;
  }
  EXPECT_EQ(count(r, Pipe::kFixpipe), 10);  // 4 + 3 + 2 + 1 of the 4 x 4 blocks
  EXPECT_EQ(count(r, Pipe::kCube), 10);
}

TEST(MatmulApiOptions, NzOutput) {
  Problem p = make(40, 48, 32, false, false, false);
  std::vector<float> c;
  c.assign(48 * 48, -1.0f);  // 40 rows padded to 48 per fractal column
  TCubeTiling t = tiling(40, 48, 32, 40, 48, 32, 32, 32, false);
  auto r = run_blocks(&matmul_api_kernels::matmul_nz, 1u, reinterpret_cast<GM_ADDR>(p.a.data()),
                      reinterpret_cast<GM_ADDR>(p.b.data()), reinterpret_cast<GM_ADDR>(p.bias.data()),
                      reinterpret_cast<GM_ADDR>(c.data()), reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int row = 0; row < 40; ++row)
    for (int col = 0; col < 48; ++col)
      ASSERT_NEAR(c[(col / 16) * 48 * 16 + row * 16 + col % 16], p.want[row * 48 + col], 1e-3f)
          << "row " << row << " col " << col;
  EXPECT_EQ(count(r, Pipe::kFixpipe), 4);  // 2 x 2 blocks
}

TEST(MatmulApiOptions, Int8DequantisedToHalf) {
  const int m = 32, n = 48, k = 64;
  std::vector<std::int8_t> a(m * k), b(n * k);  // B stored [N][K]
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<std::int8_t>(i * 7 % 15 - 7);
  for (int i = 0; i < n * k; ++i) b[i] = static_cast<std::int8_t>(i * 5 % 13 - 6);
  const float scale = 0.125f;
  std::uint64_t word = 0;
  std::memcpy(&word, &scale, sizeof(scale));
  std::vector<half> c(m * n, half(-1.0f));
  TCubeTiling t = tiling(m, n, k, m, n, 32, 16, 64, false);
  auto r = run_blocks(&matmul_api_kernels::matmul_int8_dequant, 1u,
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                      reinterpret_cast<GM_ADDR>(&word), reinterpret_cast<GM_ADDR>(c.data()),
                      reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int s = 0;
      for (int q = 0; q < k; ++q) s += a[i * k + q] * b[j * k + q];
      ASSERT_NEAR(static_cast<float>(c[i * n + j]), s * scale, 0.05f) << i << "," << j;
    }
  EXPECT_EQ(count(r, Pipe::kFixpipe), 3);
}

TEST(MatmulApiOptions, IterateBatchRunsOneMatmulPerBatch) {
  const int batch = 3, m = 32, n = 32, k = 48;
  std::vector<Problem> ps;
  std::vector<half> a, b;
  for (int i = 0; i < batch; ++i) {
    ps.push_back(make(m, n, k, false, false, false));
    for (half& v : ps.back().a) v = half(static_cast<float>(v) * static_cast<float>(i + 1));
    for (float& w : ps.back().want) w *= static_cast<float>(i + 1);
    a.insert(a.end(), ps.back().a.begin(), ps.back().a.end());
    b.insert(b.end(), ps.back().b.begin(), ps.back().b.end());
  }
  std::vector<float> c(batch * m * n, -1.0f), c1(batch * m * n, -1.0f);
  TCubeTiling t = tiling(m, n, k, m, n, 32, 32, 48, false);
  t.BatchNum = batch;
  auto go = [&](TCubeTiling& tt, std::vector<float>& out) {
    return run_blocks(&matmul_api_kernels::batch_matmul_normal, 1u,
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(out.data()),
                      reinterpret_cast<GM_ADDR>(&tt));
  };
  auto r = go(t, c);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < batch; ++i)
    for (int j = 0; j < m * n; ++j)
      ASSERT_NEAR(c[i * m * n + j], ps[i].want[j], 1e-2f) << "batch " << i << " element " << j;
  EXPECT_EQ(count(r, Pipe::kCube), batch);
  EXPECT_EQ(count(r, Pipe::kFixpipe), batch);
  TCubeTiling t1 = t;
  t1.BatchNum = 1;
  auto r1 = go(t1, c1);
  ASSERT_TRUE(r1.ok()) << r1.first_error();
  EXPECT_EQ(count(r1, Pipe::kCube), 1);
  // Three matmuls take longer than one (by less than three times: their pipes overlap).
  EXPECT_GT(block_time(r), block_time(r1) + block_time(r1) / 4);
  EXPECT_LT(block_time(r), 3 * block_time(r1));
}

TEST(MatmulApiOptions, MixKernelAivsDriveTheAicComputes) {
  // 64 x 32 x 32 on one AI Core: each AIV takes 32 rows, two 32 x 16 blocks.
  Problem p = make(64, 32, 32, false, false, false);
  TCubeTiling t = tiling(64, 32, 32, 32, 32, 32, 16, 32, false);
  std::vector<float> c(64 * 32, -1.0f), ws(64 * 32, 0.0f);
  auto r = npusim::ascendc::run_mix_blocks(
      npusim::ascendc::MixShape{1, 2}, &matmul_api_kernels::matmul_mix, 1u,
      reinterpret_cast<GM_ADDR>(p.a.data()), reinterpret_cast<GM_ADDR>(p.b.data()),
      reinterpret_cast<GM_ADDR>(ws.data()), reinterpret_cast<GM_ADDR>(c.data()),
      reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.members.ok()) << r.members.first_error();
  expect_near(p, c, 1e-3f);
  // The cube work is the AIC's (member 0): 4 blocks of one k step; the AIVs copy each block
  // GM -> UB (MTE2) and UB -> GM (MTE3) and use no cube pipe.
  EXPECT_EQ(count(r.members, Pipe::kCube, 0), 4);
  EXPECT_EQ(count(r.members, Pipe::kFixpipe, 0), 4);
  for (std::size_t aiv : {1u, 2u}) {
    EXPECT_EQ(count(r.members, Pipe::kCube, aiv), 0);
    EXPECT_EQ(count(r.members, Pipe::kMte2, aiv), 2);
    EXPECT_EQ(count(r.members, Pipe::kMte3, aiv), 2);
  }
  ASSERT_EQ(r.blocks.size(), 1u);
  EXPECT_GT(r.blocks[0].instrs.size(), 0u);
}

TEST(MatmulApiFeatures, PartialOutputStepsSummedInUbByTheTensorOperator) {
  // One 32 x 32 block, k = 96 in three 32-deep steps: each Iterate one step, not accumulated.
  Problem p = make(32, 32, 96, false, false, false);
  TCubeTiling t = tiling(32, 32, 96, 32, 32, 32, 32, 32, false);
  std::vector<float> ws(3 * 32 * 32, -1.0f), c(32 * 32, -1.0f);
  auto r = run_blocks(&matmul_api_kernels::matmul_partial_sum, 1u,
                      reinterpret_cast<GM_ADDR>(p.a.data()), reinterpret_cast<GM_ADDR>(p.b.data()),
                      reinterpret_cast<GM_ADDR>(ws.data()), reinterpret_cast<GM_ADDR>(c.data()),
                      reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.ok()) << r.first_error();
  expect_near(p, c, 1e-3f);
  // Step 0 alone: A's first 32 columns by B's first 32 rows.
  std::vector<float> a(32 * 96), b(96 * 32);
  for (int i = 0; i < 32 * 96; ++i) a[i] = static_cast<float>(p.a[i]);
  for (int i = 0; i < 96 * 32; ++i) b[i] = static_cast<float>(p.b[i]);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0.0f;
      for (int q = 0; q < 32; ++q) s += a[i * 96 + q] * b[q * 32 + j];
      ASSERT_NEAR(ws[i * 32 + j], s, 1e-3f) << i << "," << j;
    }
  // Three Mmads and three Fixpipes (one per step); in UB one Duplicate and three Adds of the
  // whole 1024-float block.
  EXPECT_EQ(count(r, Pipe::kCube), 3);
  EXPECT_EQ(count(r, Pipe::kFixpipe), 3);
  int adds = 0;
  for (const auto& in : r.blocks[0].trace.instrs)
    if (in.pipe == Pipe::kVector && in.op == npusim::ascendc::Op::kAdd) {
      ++adds;
      EXPECT_EQ(in.count, 1024u);
    }
  EXPECT_EQ(adds, 3);
}

TEST(MatmulApiFeatures, IterateNBatchLoopsOverBsngdBatchesIntoTheWorkspace) {
  // A [B=2, S=32, N=1, G=2, D=48], B stored [2, 32, 1, 2, 48] (transposed), C [2, 32, 1, 2, 32]:
  // two loops (the B index) of G = 2 batches each.
  const int nb = 2, g = 2, m = 32, n = 32, k = 48;
  std::vector<half> a(nb * m * g * k), b(nb * n * g * k);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = half(static_cast<float>(static_cast<int>(i * 7 % 11) - 5) / 4.0f);
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = half(static_cast<float>(static_cast<int>(i * 5 % 13) - 6) / 8.0f);
  TCubeTiling t = tiling(m, n, k, m, n, 32, 32, 48, false);
  t.ALayoutInfoB = nb, t.ALayoutInfoS = m, t.ALayoutInfoN = 1, t.ALayoutInfoG = g;
  t.ALayoutInfoD = k;
  t.BLayoutInfoB = nb, t.BLayoutInfoS = n, t.BLayoutInfoN = 1, t.BLayoutInfoG = g;
  t.BLayoutInfoD = k;
  t.CLayoutInfoB = nb, t.CLayoutInfoS1 = m, t.CLayoutInfoN = 1, t.CLayoutInfoG = g;
  t.CLayoutInfoS2 = n;
  t.BatchNum = g;
  std::vector<float> c(nb * m * g * n, -1.0f);
  auto r = run_blocks(&matmul_api_kernels::batch_matmul_n_batch, 1u,
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(c.data()),
                      reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int bi = 0; bi < nb; ++bi)
    for (int gi = 0; gi < g; ++gi)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          float s = 0.0f;
          for (int q = 0; q < k; ++q)
            s += static_cast<float>(a[((bi * m + i) * g + gi) * k + q]) *
                 static_cast<float>(b[((bi * n + j) * g + gi) * k + q]);
          ASSERT_NEAR(c[((bi * m + i) * g + gi) * n + j], s, 1e-3f)
              << "b " << bi << " g " << gi << " row " << i << " col " << j;
        }
  // Four batches of one block and one k step each.
  EXPECT_EQ(count(r, Pipe::kCube), nb * g);
  EXPECT_EQ(count(r, Pipe::kFixpipe), nb * g);
}

TEST(MatmulApiFeatures, Int8WithUntransposedBLoadsL0BByTransposingSquares) {
  // n = 48: three N fractals (the last square's second half is padding); k = 80 in steps of
  // 64 and 16 (L1 rows aligned to 32 for the 32 x 32 squares).
  const int m = 32, n = 48, k = 80;
  std::vector<std::int8_t> a(m * k), b(k * n);  // B stored [K][N]
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<std::int8_t>(i * 7 % 15 - 7);
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<std::int8_t>(i * 5 % 13 - 6);
  const float scale = 0.125f;
  std::uint64_t word = 0;
  std::memcpy(&word, &scale, sizeof(scale));
  std::vector<half> c(m * n, half(-1.0f));
  TCubeTiling t = tiling(m, n, k, m, n, 32, 48, 64, false);
  auto r = run_blocks(&matmul_api_kernels::matmul_int8_plain_b, 1u,
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                      reinterpret_cast<GM_ADDR>(&word), reinterpret_cast<GM_ADDR>(c.data()),
                      reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int s = 0;
      for (int q = 0; q < k; ++q) s += a[i * k + q] * b[q * n + j];
      ASSERT_EQ(static_cast<float>(c[i * n + j]), static_cast<float>(half(s * scale)))
          << i << "," << j;
    }
  // MTE1 per k step: A one LoadData per 16 rows (2); B one LoadDataWithTranspose per 32-deep
  // k row (2, then 1), each of two squares (2 KB).
  int mte1 = 0, squares = 0;
  for (const auto& in : r.blocks[0].trace.instrs)
    if (in.pipe == Pipe::kMte1) {
      ++mte1;
      if (in.dst == npusim::ascendc::Mem::kL0b) {
        squares += static_cast<int>(in.count);
        EXPECT_EQ(in.bytes, 2048u);
      }
    }
  EXPECT_EQ(mte1, (2 + 2) + (2 + 1));
  EXPECT_EQ(squares, 2 * 3);
  EXPECT_EQ(count(r, Pipe::kCube), 2);
}

TEST(MatmulApiFeatures, StdTupleCoordAndLayoutIndex) {
  AscendC::Std::tuple<std::int64_t, std::int64_t, std::int64_t> t{3, 5, 7};
  EXPECT_EQ(AscendC::Std::get<1>(t), 5);
  EXPECT_EQ(AscendC::Std::tuple_size_v<decltype(t)>, 3u);
  auto u = AscendC::Std::make_tuple(1, 2.5f);
  EXPECT_EQ(AscendC::Std::get<1>(u), 2.5f);
  EXPECT_EQ(AscendC::Ceil(std::int64_t{1000}, std::int64_t{256}), 4);
  EXPECT_EQ(AscendC::Ceil(1024, 256u), 4u);
  EXPECT_EQ(AscendC::Ceil(5, 0), 0);
  // Row-major 6 x 10: (2, 3) is element 23; shape (3, 4, 5) stride (20, 5, 1): (1, 2, 3) -> 33.
  auto rm = AscendC::MakeLayout(AscendC::MakeShape(6, 10), AscendC::MakeStride(10, 1));
  EXPECT_EQ(rm(AscendC::MakeCoord(2, 3)), 23);
  auto l3 = AscendC::MakeLayout(AscendC::MakeShape(3, 4, 5), AscendC::MakeStride(20, 5, 1));
  EXPECT_EQ(AscendC::Crd2Idx(AscendC::MakeCoord(1, 2, 3), l3), 33);
  // One integer coordinate is spread over the shape, the first extent fastest: 7 in (3, 4)
  // with strides (1, 3) is (1, 2) -> 1 + 6.
  auto cm = AscendC::MakeLayout(AscendC::MakeShape(3, 4), AscendC::MakeStride(1, 3));
  EXPECT_EQ(cm(7), 7);
  auto rm2 = AscendC::MakeLayout(AscendC::MakeShape(3, 4), AscendC::MakeStride(4, 1));
  EXPECT_EQ(rm2(7), 1 * 4 + 2 * 1);  // (7 % 3, 7 / 3) = (1, 2)
  AscendC::Coord<std::int64_t, std::int64_t, std::int64_t> co = {1, 2, 3};
  EXPECT_EQ(std::get<2>(co), 3);
}

TEST(MatmulApiFeatures, ChannelSplitWritesNzAs16By8Fractals) {
  Problem p = make(40, 48, 32, false, false, false);
  std::vector<float> c(48 * 48, -1.0f), c16(48 * 48, -1.0f);  // 40 rows padded to 48
  TCubeTiling t = tiling(40, 48, 32, 40, 48, 32, 32, 32, false);
  auto go = [&](auto kernel, std::vector<float>& out) {
    return run_blocks(kernel, 1u, reinterpret_cast<GM_ADDR>(p.a.data()),
                      reinterpret_cast<GM_ADDR>(p.b.data()),
                      reinterpret_cast<GM_ADDR>(p.bias.data()),
                      reinterpret_cast<GM_ADDR>(out.data()), reinterpret_cast<GM_ADDR>(&t));
  };
  auto r = go(&matmul_api_kernels::matmul_nz_channel_split, c);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int row = 0; row < 40; ++row)
    for (int col = 0; col < 48; ++col)
      ASSERT_NEAR(c[(col / 8) * 48 * 8 + row * 8 + col % 8], p.want[row * 48 + col], 1e-3f)
          << "row " << row << " col " << col;
  // The same Fixpipes (2 x 2 blocks, same bytes) as the 16 x 16 NZ output, the same pipe work
  // (the blocks' whole times also hold the kernels' scalar code, which a sanitizer build
  // instruments differently in the two kernels).
  auto r16 = go(&matmul_api_kernels::matmul_nz, c16);
  ASSERT_TRUE(r16.ok()) << r16.first_error();
  EXPECT_EQ(count(r, Pipe::kFixpipe), 4);
  EXPECT_EQ(count(r, Pipe::kFixpipe), count(r16, Pipe::kFixpipe));
  for (Pipe pipe : {Pipe::kCube, Pipe::kMte1, Pipe::kMte2, Pipe::kFixpipe})
    EXPECT_EQ(pipe_cycles(r, pipe), pipe_cycles(r16, pipe)) << static_cast<int>(pipe);
  EXPECT_GT(pipe_cycles(r, Pipe::kFixpipe), 0u);
}

TEST(MatmulApiFeatures, A2B2SharedMatmulsShareL0AndFitL0C) {
  // Two Matmuls of 128 x 160 base blocks (80 KB of L0C each: two would overflow its 128 KB).
  const int m = 128, n = 160, k = 64;
  Problem p1 = make(m, n, k, false, false, true);
  Problem p2 = make(m, n, k, false, false, true);
  for (half& v : p2.a) v = half(-static_cast<float>(v) * 0.5f);
  for (int i = 0; i < m; ++i)  // C2 = (-A / 2) * B + bias
    for (int j = 0; j < n; ++j)
      p2.want[i * n + j] = p1.bias[j] - (p1.want[i * n + j] - p1.bias[j]) * 0.5f;
  std::vector<half> a(p1.a);
  a.insert(a.end(), p2.a.begin(), p2.a.end());
  std::vector<float> c(2 * m * n, -1.0f);
  TCubeTiling t = tiling(m, n, k, m, n, 128, 160, 64, true);
  auto r = run_blocks(&matmul_api_kernels::matmul_a2b2_pair, 1u,
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(p1.b.data()),
                      reinterpret_cast<GM_ADDR>(p1.bias.data()),
                      reinterpret_cast<GM_ADDR>(c.data()), reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < m * n; ++i) {
    ASSERT_NEAR(c[i], p1.want[i], 1e-3f) << "C1 element " << i;
    ASSERT_NEAR(c[m * n + i], p2.want[i], 1e-3f) << "C2 element " << i;
  }
  // Each Matmul's one block: one Mmad, one Fixpipe; the second Matmul's Mmad writes the L0C
  // block the first one's Fixpipe read (the same slot: it waits for that read).
  EXPECT_EQ(count(r, Pipe::kCube), 2);
  EXPECT_EQ(count(r, Pipe::kFixpipe), 2);
}

TEST(MatmulApiFeatures, SparseBDensifiedWithIndicesThroughLoadDataWithSparse) {
  // B [N][K] with two values in every 4 k of a row, given densified ([N][K/2]) with its 2-bit
  // indices ([N][K/8] bytes, as NZ 16 x 8-byte fractals); k = 128 in two 64-deep steps.
  const int m = 32, n = 48, k = 128;
  std::vector<std::int8_t> a(m * k), bs(n * k, 0), bd(n * k / 2);
  std::vector<std::uint8_t> idx(n * k / 8), idx_nz(n * k / 8);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<std::int8_t>(i * 7 % 15 - 7);
  for (int r = 0; r < n; ++r)
    for (int g = 0; g < k / 4; ++g) {
      const int p0 = (r + g) % 3, p1 = p0 + 1 + (r * 3 + g) % (3 - p0);  // p0 < p1 <= 3
      const auto v0 = static_cast<std::int8_t>((r * 5 + g) % 9 - 4);
      const auto v1 = static_cast<std::int8_t>((r + g * 3) % 7 - 3);
      bs[r * k + g * 4 + p0] = v0;
      bs[r * k + g * 4 + p1] = v1;
      bd[r * k / 2 + g * 2] = v0;
      bd[r * k / 2 + g * 2 + 1] = v1;
      // dense element 2g: index p0; 2g + 1: index p1 - 1; four to a byte, element e at 2e.
      const int e0 = (g * 2) % 4, byte = r * k / 8 + g / 2;
      idx[byte] = static_cast<std::uint8_t>(idx[byte] | (p0 << (2 * e0)) |
                                            ((p1 - 1) << (2 * (e0 + 1))));
    }
  const int kb = k / 8;  // index bytes per row; NZ: fractal (col / 8, row / 16) of 16 x 8
  for (int r = 0; r < n; ++r)
    for (int j = 0; j < kb; ++j)
      idx_nz[((j / 8) * (n / 16) + r / 16) * 128 + (r % 16) * 8 + j % 8] = idx[r * kb + j];
  std::vector<std::int32_t> c(m * n, -1);
  TCubeTiling t = tiling(m, n, k, m, n, 32, 48, 64, false);
  auto r = run_blocks(&matmul_api_kernels::matmul_sparse, 1u, reinterpret_cast<GM_ADDR>(a.data()),
                      reinterpret_cast<GM_ADDR>(bd.data()), reinterpret_cast<GM_ADDR>(idx_nz.data()),
                      reinterpret_cast<GM_ADDR>(c.data()), reinterpret_cast<GM_ADDR>(&t));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int s = 0;
      for (int q = 0; q < k; ++q) s += a[i * k + q] * bs[j * k + q];
      ASSERT_EQ(c[i * n + j], s) << i << "," << j;
    }
  // Per k step: MTE2 A, B's dense tile and its indices; MTE1 A (2 LoadData) and one
  // LoadDataWithSparse (32 dense k) of 3 fractals; one Mmad of k/2 = 32 products per output.
  EXPECT_EQ(count(r, Pipe::kMte2), 2 * 3);
  EXPECT_EQ(count(r, Pipe::kMte1), 2 * (2 + 1));
  EXPECT_EQ(count(r, Pipe::kCube), 2);
  for (const auto& in : r.blocks[0].trace.instrs)
    if (in.pipe == Pipe::kMte1 && in.dst == npusim::ascendc::Mem::kL0b) {
      EXPECT_EQ(in.count, 3u);
      EXPECT_EQ(in.bytes, 3u * 512 + 3u * 128);
    }
}

}  // namespace
