// SPDX-License-Identifier: Apache-2.0
// Timing-only mode (BlockContext::functional false, config aicore.functional: false): the same
// kernels record exactly the same traces — every instruction's fields, basic-block counts and
// dependencies — as in functional mode, compute nothing (outputs keep what they held), and
// still reject bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cube_kernels.h"
#include "npusim/ascendc/block_runner.h"
#include "test_kernels.h"

namespace {

using npusim::ascendc::BlockTrace;
using npusim::ascendc::CoreBuffers;
using npusim::ascendc::Instr;
using npusim::ascendc::RunResult;

void expect_same_trace(const BlockTrace& f, const BlockTrace& t, std::uint32_t block) {
  ASSERT_EQ(f.instrs.size(), t.instrs.size()) << "block " << block;
  for (std::size_t i = 0; i < f.instrs.size(); ++i) {
    const Instr& a = f.instrs[i];
    const Instr& b = t.instrs[i];
    EXPECT_TRUE(a.pipe == b.pipe && a.op == b.op && a.dtype == b.dtype && a.dtype2 == b.dtype2 &&
                a.src == b.src && a.dst == b.dst && a.m == b.m && a.n == b.n && a.k == b.k &&
                a.count == b.count && a.bytes == b.bytes && a.scalar_bbs == b.scalar_bbs &&
                a.dep_begin == b.dep_begin && a.dep_count == b.dep_count)
        << "block " << block << " instruction " << i;
  }
  EXPECT_EQ(f.deps, t.deps) << "block " << block;
  EXPECT_EQ(f.scalar_bbs, t.scalar_bbs) << "block " << block;
  EXPECT_EQ(f.local_bytes, t.local_bytes) << "block " << block;
}

void expect_same_traces(const RunResult& f, const RunResult& t) {
  ASSERT_TRUE(f.ok()) << f.first_error();
  ASSERT_TRUE(t.ok()) << t.first_error();
  ASSERT_EQ(f.blocks.size(), t.blocks.size());
  std::size_t instrs = 0;
  for (std::size_t b = 0; b < f.blocks.size(); ++b) {
    expect_same_trace(f.blocks[b].trace, t.blocks[b].trace, static_cast<std::uint32_t>(b));
    instrs += f.blocks[b].trace.instrs.size();
  }
  EXPECT_GT(instrs, 0u);
}

template <class... P, class... A>
RunResult run(bool functional, void (*kernel)(P...), std::uint32_t blocks, A... args) {
  return npusim::ascendc::run_blocks_mode(functional, CoreBuffers{}, kernel, blocks, args...);
}

TEST(TimingOnly, VectorAddSameTraceNoResult) {
  constexpr std::uint32_t kTotal = 8 * 1024, kTile = 256;
  std::vector<float> a(kTotal, 1.5f), b(kTotal, 2.0f), c(kTotal, -7.0f);
  const auto pa = reinterpret_cast<GM_ADDR>(a.data());
  const auto pb = reinterpret_cast<GM_ADDR>(b.data());
  const auto pc = reinterpret_cast<GM_ADDR>(c.data());
  RunResult t = run(false, &test_kernels::tiled_add<float, 2>, 4, pa, pb, pc, kTotal, kTile);
  for (float v : c) ASSERT_EQ(v, -7.0f);  // nothing computed, nothing copied out
  RunResult f = run(true, &test_kernels::tiled_add<float, 2>, 4, pa, pb, pc, kTotal, kTile);
  for (float v : c) ASSERT_EQ(v, 3.5f);
  expect_same_traces(f, t);
}

TEST(TimingOnly, SoftmaxSameTrace) {
  constexpr std::uint32_t kRows = 12, kCols = 512;
  std::vector<float> x(kRows * kCols), y(kRows * kCols, 0.0f);
  for (std::uint32_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.01f * static_cast<float>(i));
  RunResult f = run(true, &test_kernels::row_softmax, 3, reinterpret_cast<GM_ADDR>(x.data()),
                    reinterpret_cast<GM_ADDR>(y.data()), kRows, kCols);
  RunResult t = run(false, &test_kernels::row_softmax, 3, reinterpret_cast<GM_ADDR>(x.data()),
                    reinterpret_cast<GM_ADDR>(y.data()), kRows, kCols);
  expect_same_traces(f, t);
}

template <class Out>
void check_tiled_matmul() {
  constexpr std::uint32_t kM = 64, kN = 96, kK = 256;
  std::vector<half> a(kM * kK), b(kK * kN);
  for (std::uint32_t i = 0; i < a.size(); ++i) a[i] = half(std::sin(0.1f * static_cast<float>(i)));
  for (std::uint32_t i = 0; i < b.size(); ++i) b[i] = half(0.5f);
  std::vector<Out> c(kM * kN, Out(-3.0f));
  const std::uint32_t blocks = (kM / 32) * (kN / 32);
  RunResult t = run(false, &test_kernels::tiled_matmul<Out>, blocks,
                    reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                    reinterpret_cast<GM_ADDR>(c.data()), kM, kN, kK);
  for (const Out& v : c) ASSERT_EQ(static_cast<float>(v), -3.0f);
  RunResult f = run(true, &test_kernels::tiled_matmul<Out>, blocks,
                    reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                    reinterpret_cast<GM_ADDR>(c.data()), kM, kN, kK);
  EXPECT_NE(static_cast<float>(c[0]), -3.0f);
  expect_same_traces(f, t);
}

TEST(TimingOnly, TiledMatmulSameTraceNoResult) {
  check_tiled_matmul<float>();
  check_tiled_matmul<half>();
}

// LoadData GM -> L0, Mmad over several calls, Fixpipe with quantisation, for float and int8
// inputs (the out-of-line cube bodies) and bf16.
TEST(TimingOnly, MmadChainsSameTrace) {
  constexpr std::uint32_t kM = 20, kN = 24, kK = 64, kCalls = 3;
  std::vector<std::uint8_t> a(64 * 1024, 0), b(64 * 1024, 0), c(16 * 1024, 0);
  const auto pa = reinterpret_cast<GM_ADDR>(a.data());
  const auto pb = reinterpret_cast<GM_ADDR>(b.data());
  const auto pc = reinterpret_cast<GM_ADDR>(c.data());
  const std::uint32_t f16 = static_cast<std::uint32_t>(QuantMode_t::F322F16) | 0x100u;
  const std::uint32_t deq = static_cast<std::uint32_t>(QuantMode_t::DEQF16);
  expect_same_traces(run(true, &cube_kernels::mmad_chain<half, float, half>, 1, pa, pb, pc, kM, kN,
                         kK, kCalls, f16, std::uint64_t{0}),
                     run(false, &cube_kernels::mmad_chain<half, float, half>, 1, pa, pb, pc, kM,
                         kN, kK, kCalls, f16, std::uint64_t{0}));
  expect_same_traces(
      run(true, &cube_kernels::mmad_chain<bfloat16_t, float, float>, 1, pa, pb, pc, kM, kN, kK,
          kCalls, 0u, std::uint64_t{0}),
      run(false, &cube_kernels::mmad_chain<bfloat16_t, float, float>, 1, pa, pb, pc, kM, kN, kK,
          kCalls, 0u, std::uint64_t{0}));
  expect_same_traces(
      run(true, &cube_kernels::mmad_chain<std::int8_t, std::int32_t, half>, 1, pa, pb, pc, kM, kN,
          kK, kCalls, deq, std::uint64_t{0x3c000000}),
      run(false, &cube_kernels::mmad_chain<std::int8_t, std::int32_t, half>, 1, pa, pb, pc, kM,
          kN, kK, kCalls, deq, std::uint64_t{0x3c000000}));
}

// Argument checks stay: a bad Fixpipe quantPre mode fails the same way in both modes.
TEST(TimingOnly, BadArgumentsStillFail) {
  std::vector<std::uint8_t> a(64 * 1024, 0), b(64 * 1024, 0), c(16 * 1024, 0);
  const std::uint32_t bad = static_cast<std::uint32_t>(QuantMode_t::VREQ8);
  for (bool functional : {true, false}) {
    RunResult r = run(functional, &cube_kernels::mmad_chain<half, float, half>, 1,
                      reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                      reinterpret_cast<GM_ADDR>(c.data()), 16u, 16u, 16u, 1u, bad,
                      std::uint64_t{0});
    ASSERT_FALSE(r.ok()) << functional;
    EXPECT_NE(r.first_error().find("quantPre mode"), std::string::npos) << r.first_error();
  }
}

}  // namespace
