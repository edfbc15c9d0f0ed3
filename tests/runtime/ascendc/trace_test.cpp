// SPDX-License-Identifier: Apache-2.0
// The instruction trace: pipes, quantities and the dependency edges queue events produce.
// Double buffering must show: with 2 buffers the copy-in of tile t waits for the compute of
// tile t-2 (not t-1), so a pipelined schedule overlaps; with 1 buffer it serialises.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "npusim/ascendc/block_runner.h"
#include "test_kernels.h"

namespace {

using npusim::ascendc::BlockTrace;
using npusim::ascendc::DType;
using npusim::ascendc::Instr;
using npusim::ascendc::Mem;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;

std::set<std::uint32_t> deps_of(const BlockTrace& t, std::uint32_t i) {
  const Instr& ins = t.instrs[i];
  return {t.deps.begin() + ins.dep_begin, t.deps.begin() + ins.dep_begin + ins.dep_count};
}

// Length of the schedule when every instruction takes one unit, each pipe runs its
// instructions in order, and an instruction starts after its deps end.
std::uint32_t unit_makespan(const BlockTrace& t) {
  std::array<std::uint32_t, npusim::ascendc::kPipeCount> pipe_free{};
  std::vector<std::uint32_t> end(t.instrs.size());
  std::uint32_t makespan = 0;
  for (std::uint32_t i = 0; i < t.instrs.size(); ++i) {
    std::uint32_t start = pipe_free[static_cast<int>(t.instrs[i].pipe)];
    for (std::uint32_t d : deps_of(t, i)) start = std::max(start, end[d]);
    end[i] = start + 1;
    pipe_free[static_cast<int>(t.instrs[i].pipe)] = end[i];
    makespan = std::max(makespan, end[i]);
  }
  return makespan;
}

template <std::int32_t kBuffers>
BlockTrace add_trace() {
  constexpr std::uint32_t kTotal = 1024;
  static std::vector<float> a(kTotal, 1.0f), b(kTotal, 2.0f), c(kTotal);
  auto r = npusim::ascendc::run_blocks(
      &test_kernels::tiled_add<float, kBuffers>, 1, reinterpret_cast<GM_ADDR>(a.data()),
      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(c.data()), kTotal, 128u);
  EXPECT_TRUE(r.ok()) << r.first_error();
  return r.blocks[0].trace;
}

TEST(Trace, VectorAddRecordsPipesAndQuantities) {
  const BlockTrace t = add_trace<2>();
  ASSERT_EQ(t.instrs.size(), 8u * 4u);  // per tile: copy a, copy b, add, copy out
  for (std::uint32_t tile = 0; tile < 8; ++tile) {
    const Instr* i = &t.instrs[4 * tile];
    EXPECT_EQ(i[0].pipe, Pipe::kMte2);
    EXPECT_EQ(i[0].op, Op::kCopy);
    EXPECT_EQ(i[0].src, Mem::kGm);
    EXPECT_EQ(i[0].dst, Mem::kUb);
    EXPECT_EQ(i[0].bytes, 512u);
    EXPECT_EQ(i[0].count, 1u);
    EXPECT_TRUE(i[0].touches_gm());
    EXPECT_EQ(i[1].pipe, Pipe::kMte2);
    EXPECT_EQ(i[2].pipe, Pipe::kVector);
    EXPECT_EQ(i[2].op, Op::kAdd);
    EXPECT_EQ(i[2].dtype, DType::kFp32);
    EXPECT_EQ(i[2].count, 128u);
    EXPECT_EQ(i[2].bytes, 512u);
    EXPECT_FALSE(i[2].touches_gm());
    EXPECT_EQ(i[3].pipe, Pipe::kMte3);
    EXPECT_EQ(i[3].dst, Mem::kGm);
  }
}

TEST(Trace, DoubleBufferingLetsTheProducerRunOneTileAhead) {
  const BlockTrace t = add_trace<2>();
  for (std::uint32_t tile = 0; tile < 8; ++tile) {
    const std::uint32_t base = 4 * tile;
    // Compute waits for both copies (EnQue signals the last MTE2 instruction so far) and, from
    // tile 2 on, for the copy-out that released its output buffer two tiles ago.
    std::set<std::uint32_t> add = {base + 1};
    if (tile >= 2) add.insert(base - 8 + 3);
    EXPECT_EQ(deps_of(t, base + 2), add) << tile;
    EXPECT_EQ(deps_of(t, base + 3), (std::set<std::uint32_t>{base + 2})) << tile;
    // Copy-in reuses the buffer freed by the compute of tile - 2.
    const std::set<std::uint32_t> in =
        tile >= 2 ? std::set<std::uint32_t>{base - 8 + 2} : std::set<std::uint32_t>{};
    EXPECT_EQ(deps_of(t, base), in) << tile;
    EXPECT_EQ(deps_of(t, base + 1), in) << tile;
  }
}

TEST(Trace, SingleBufferingSerialisesTiles) {
  const BlockTrace t = add_trace<1>();
  ASSERT_EQ(t.instrs.size(), 32u);
  for (std::uint32_t tile = 1; tile < 8; ++tile) {
    const std::uint32_t base = 4 * tile;
    EXPECT_EQ(deps_of(t, base), (std::set<std::uint32_t>{base - 4 + 2})) << tile;
    EXPECT_EQ(deps_of(t, base + 2), (std::set<std::uint32_t>{base + 1, base - 4 + 3})) << tile;
  }
}

TEST(Trace, DoubleBufferingShortensAPipelinedSchedule) {
  const std::uint32_t single = unit_makespan(add_trace<1>());
  const std::uint32_t dual = unit_makespan(add_trace<2>());
  EXPECT_LT(dual, single);
  EXPECT_EQ(single, 8u * 4u - 7u);  // copy-out of tile t overlaps only copy-in of tile t+1
  EXPECT_LE(dual, 8u * 2u + 3u);    // bound by MTE2 (two copies per tile) plus the tail
}

TEST(Trace, ScalarReadWaitsForTheVectorResult) {
  std::vector<float> x(2 * 64, 1.0f), y(2 * 64);
  auto r =
      npusim::ascendc::run_blocks(&test_kernels::row_softmax, 1, reinterpret_cast<GM_ADDR>(x.data()),
                                 reinterpret_cast<GM_ADDR>(y.data()), 2u, 64u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const BlockTrace& t = r.blocks[0].trace;
  std::uint32_t reads = 0;
  for (std::uint32_t i = 0; i < t.instrs.size(); ++i) {
    if (t.instrs[i].op != Op::kScalarRead) continue;
    ++reads;
    ASSERT_GE(i, 1u);
    const Op producer = t.instrs[i - 1].op;
    EXPECT_TRUE(producer == Op::kReduceMax || producer == Op::kReduceSum);
    EXPECT_EQ(deps_of(t, i), (std::set<std::uint32_t>{i - 1}));
    EXPECT_EQ(t.instrs[i].src, Mem::kUb);
  }
  EXPECT_EQ(reads, 4u);
}

extern "C" __global__ __aicore__ void explicit_sync(GM_ADDR src, GM_ADDR dst, std::uint32_t mode) {
  using namespace AscendC;
  test_kernels::StagedCopy<float> k(src, dst, 1024);
  LocalTensor<float>& t = k.ub;
  DataCopy(t, k.gs, 64);  // 0: MTE2
  if (mode == 1) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  }
  Adds(t, t, 1.0f, 64);  // 1: V
  if (mode == 2) PipeBarrier<PIPE_ALL>();
  if (mode == 1) {
    const std::int32_t id = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
    SetFlag<HardEvent::V_MTE3>(id);
    WaitFlag<HardEvent::V_MTE3>(id);
  }
  DataCopy(k.gd, t, 64);  // 2: MTE3
}

TEST(Trace, ExplicitFlagsAndBarriers) {
  std::vector<float> s(64, 1.0f), d(64);
  auto run = [&](std::uint32_t mode) {
    auto r = npusim::ascendc::run_blocks(&explicit_sync, 1, reinterpret_cast<GM_ADDR>(s.data()),
                                        reinterpret_cast<GM_ADDR>(d.data()), mode);
    EXPECT_TRUE(r.ok()) << r.first_error();
    return r.blocks[0].trace;
  };
  const BlockTrace none = run(0), flags = run(1), barrier = run(2);
  EXPECT_TRUE(deps_of(none, 1).empty());  // a TBuf has no queue: no sync unless written
  EXPECT_TRUE(deps_of(none, 2).empty());
  EXPECT_EQ(deps_of(flags, 1), (std::set<std::uint32_t>{0}));
  EXPECT_EQ(deps_of(flags, 2), (std::set<std::uint32_t>{1}));
  EXPECT_EQ(deps_of(barrier, 2), (std::set<std::uint32_t>{0, 1}));
  EXPECT_EQ(d[5], 2.0f);
}

TEST(Trace, CubePathRecordsShapesAndPipes) {
  constexpr std::uint32_t kM = 32, kN = 32, kK = 128;
  std::vector<half> a(kM * kK, half(1.0f)), b(kK * kN, half(0.5f));
  std::vector<float> c(kM * kN);
  auto r = npusim::ascendc::run_blocks(
      &test_kernels::tiled_matmul<float>, 1, reinterpret_cast<GM_ADDR>(a.data()),
      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(c.data()), kM, kN, kK);
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(c[0], 64.0f);
  const BlockTrace& t = r.blocks[0].trace;
  std::uint32_t mmads = 0, loads = 0, nd2nz = 0, fixpipes = 0;
  for (std::uint32_t i = 0; i < t.instrs.size(); ++i) {
    const Instr& ins = t.instrs[i];
    if (ins.op == Op::kMmad) {
      ++mmads;
      EXPECT_EQ(ins.pipe, Pipe::kCube);
      EXPECT_EQ(ins.m, 32);
      EXPECT_EQ(ins.n, 32);
      EXPECT_EQ(ins.k, 64);
      EXPECT_EQ(ins.dtype, DType::kFp16);
      EXPECT_EQ(ins.dtype2, DType::kFp32);
      bool waits_for_mte1 = false;
      for (std::uint32_t d : deps_of(t, i)) waits_for_mte1 |= t.instrs[d].pipe == Pipe::kMte1;
      EXPECT_TRUE(waits_for_mte1);
    } else if (ins.op == Op::kLoad2d) {
      ++loads;
      EXPECT_EQ(ins.pipe, Pipe::kMte1);
      EXPECT_EQ(ins.src, Mem::kL1);
      EXPECT_EQ(ins.bytes, 512u * ins.count);
    } else if (ins.op == Op::kCopyNd2Nz) {
      ++nd2nz;
      EXPECT_EQ(ins.pipe, Pipe::kMte2);
      EXPECT_EQ(ins.bytes, 32u * 64u * 2u);
    } else if (ins.op == Op::kFixpipe) {
      ++fixpipes;
      EXPECT_EQ(ins.pipe, Pipe::kFixpipe);
      EXPECT_EQ(ins.bytes, 32u * 32u * 4u);
      EXPECT_TRUE(ins.touches_gm());
      EXPECT_FALSE(deps_of(t, i).empty());
    }
  }
  EXPECT_EQ(mmads, 2u);
  EXPECT_EQ(nd2nz, 4u);
  EXPECT_EQ(loads, 2u * (2u + 4u));
  EXPECT_EQ(fixpipes, 1u);
}

TEST(Trace, DepsPointBackwardsOnOtherPipes) {
  const BlockTrace t = add_trace<2>();
  for (std::uint32_t i = 0; i < t.instrs.size(); ++i) {
    for (std::uint32_t d : deps_of(t, i)) {
      EXPECT_LT(d, i);
      EXPECT_NE(t.instrs[d].pipe, t.instrs[i].pipe);
    }
  }
}

}  // namespace
