// SPDX-License-Identifier: Apache-2.0
// The sort high-level APIs of the twin (lib/sort: Concat, Sort, Extract, TopK) with their host
// tiling (tiling/tiling_api.h): sorted values and indices against std::stable_sort here, and the
// vector instructions they record (Sort32, the MrgSort rounds, GatherMask).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using npusim::ascendc::Op;
using npusim::ascendc::Pipe;
using npusim::ascendc::RunResult;

// The host tiling functions take the platform without asking it anything.
const platform_ascendc::PlatformAscendC kPlatform(nullptr);

constexpr std::uint32_t kBytes = 32768;

std::size_t vector_instrs(const RunResult& r) {
  std::size_t n = 0;
  for (const auto& in : r.blocks.at(0).trace.instrs) n += in.pipe == Pipe::kVector ? 1 : 0;
  return n;
}

std::vector<float> scores(std::uint32_t n, std::uint32_t seed) {
  std::vector<float> x(n);
  for (std::uint32_t i = 0; i < n; ++i)
    x[i] = std::round(std::sin(0.7f * static_cast<float>(i * seed + 1)) * 50.0f);  // with ties
  return x;
}

/// Indices of x by descending value, ties by index (as Sort32 and MrgSort keep them).
std::vector<std::uint32_t> order(const std::vector<float>& x, bool descending) {
  std::vector<std::uint32_t> idx(x.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
    return descending ? x[a] > x[b] : x[a] < x[b];
  });
  return idx;
}

// ---- Sort -----------------------------------------------------------------------------------

void sort_kernel(GM_ADDR in, GM_ADDR out_value, GM_ADDR out_index, std::uint32_t n,
                 std::uint32_t tmp_bytes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tv, ti, ts, tt, tov, toi;
  pipe.InitBuffer(tv, kBytes);
  pipe.InitBuffer(ti, kBytes);
  pipe.InitBuffer(ts, kBytes);
  pipe.InitBuffer(tt, tmp_bytes);
  pipe.InitBuffer(tov, kBytes);
  pipe.InitBuffer(toi, kBytes);
  LocalTensor<float> value = tv.Get<float>(), sorted = ts.Get<float>(), tmp = tt.Get<float>();
  LocalTensor<std::uint32_t> index = ti.Get<std::uint32_t>();
  LocalTensor<float> out_v = tov.Get<float>();
  LocalTensor<std::uint32_t> out_i = toi.Get<std::uint32_t>();
  std::memcpy(value.twin_data(), in, n * 4);
  for (std::uint32_t i = 0; i < n; ++i) index.twin_data()[i] = i;
  LocalTensor<float> concat;
  Concat(concat, value, tmp, static_cast<std::int32_t>(n / 16));
  Sort<float, true>(sorted, concat, index, tmp, static_cast<std::int32_t>(n / 32));
  Extract(out_v, out_i, sorted, static_cast<std::int32_t>(n / 32));
  std::memcpy(out_value, out_v.twin_data(), n * 4);
  std::memcpy(out_index, out_i.twin_data(), n * 4);
}

struct SortRun {
  RunResult run;
  std::vector<float> x, v;
  std::vector<std::uint32_t> i;
};

SortRun run_sort(std::uint32_t n) {
  SortRun s;
  s.x = scores(n, 3);
  s.v.resize(n);
  s.i.resize(n);
  uint32_t max = 0, min = 0;
  GetSortMaxMinTmpSize(TensorShape({n}), TensorDataType::DT_FLOAT, TensorDataType::DT_UINT32, false,
                       SortConfig{}, max, min);
  EXPECT_EQ(min, n * 8);
  s.run = npusim::ascendc::run_blocks(&sort_kernel, 1, reinterpret_cast<GM_ADDR>(s.x.data()),
                                      reinterpret_cast<GM_ADDR>(s.v.data()),
                                      reinterpret_cast<GM_ADDR>(s.i.data()), n, min);
  return s;
}

void expect_sorted(const SortRun& s) {
  const std::vector<std::uint32_t> want = order(s.x, true);
  for (std::size_t k = 0; k < want.size(); ++k) {
    ASSERT_EQ(s.i[k], want[k]) << k;
    ASSERT_EQ(s.v[k], s.x[want[k]]) << k;
  }
}

TEST(SortApi, FullSortMergesTheSort32GroupsInRoundsOfFour) {
  // 128: Sort32, one MrgSort of four queues, the result copied back from tmp, two GatherMask.
  const SortRun a = run_sort(128);
  ASSERT_TRUE(a.run.ok()) << a.run.first_error();
  expect_sorted(a);
  EXPECT_EQ(vector_instrs(a.run), 1u + 1 + 1 + 2);
  // 96: three queues in one MrgSort. 640: 20 groups -> 5 merges of 4 (one instruction, 5
  // repeats) -> a merge of 4 queues of 128 and a lone queue of 128 (a Copy) -> a merge of two,
  // then the copy back from tmp.
  const SortRun b = run_sort(96);
  ASSERT_TRUE(b.run.ok()) << b.run.first_error();
  expect_sorted(b);
  EXPECT_EQ(vector_instrs(b.run), 1u + 1 + 1 + 2);
  const SortRun c = run_sort(640);
  ASSERT_TRUE(c.run.ok()) << c.run.first_error();
  expect_sorted(c);
  EXPECT_EQ(vector_instrs(c.run), 1u + 1 + 2 + 1 + 1 + 2);
}

// ---- TopK -----------------------------------------------------------------------------------

struct TopkCase {
  std::uint32_t outter, inner, n, k;
  bool largest;
  bool framework;  // no tmp tensor: the framework form
};

template <bool kFinish>
void topk_kernel(GM_ADDR in, GM_ADDR finish_in, GM_ADDR out_v, GM_ADDR out_i, TopkCase c,
                 std::uint8_t* tiling_bytes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tx, ti, tf, tov, toi, tt;
  pipe.InitBuffer(tx, kBytes);
  pipe.InitBuffer(ti, 1024);
  pipe.InitBuffer(tf, 32);
  pipe.InitBuffer(tov, 4096);
  pipe.InitBuffer(toi, 4096);
  TopkTiling t;
  std::memcpy(&t, tiling_bytes, sizeof(t));
  LocalTensor<float> x = tx.Get<float>(), v = tov.Get<float>();
  LocalTensor<std::int32_t> idx = ti.Get<std::int32_t>(), oi = toi.Get<std::int32_t>();
  LocalTensor<bool> finish = tf.Get<bool>();
  std::memcpy(x.twin_data(), in, c.outter * c.inner * 4);
  std::memcpy(finish.twin_data(), finish_in, c.outter);
  std::memset(v.twin_data(), 0, 4096);
  std::memset(oi.twin_data(), 0, 4096);
  TopKInfo info;
  info.outter = static_cast<std::int32_t>(c.outter);
  info.inner = static_cast<std::int32_t>(c.inner);
  info.n = static_cast<std::int32_t>(c.n);
  const auto k = static_cast<std::int32_t>(c.k);
  if (c.framework) {
    TopK<float, false, kFinish>(v, oi, x, idx, finish, k, t, info, c.largest);
  } else {
    pipe.InitBuffer(tt, t.tmpLocalSize);
    TopK<float, false, kFinish>(v, oi, x, idx, finish, tt.Get<std::uint8_t>(), k, t, info,
                                c.largest);
  }
  std::memcpy(out_v, v.twin_data(), 4096);
  std::memcpy(out_i, oi.twin_data(), 4096);
}

struct TopkRun {
  RunResult run;
  std::vector<float> x, v;
  std::vector<std::int32_t> i;
  TopkTiling t;
};

template <bool kFinish>
TopkRun run_topk(const TopkCase& c, const std::vector<std::uint8_t>& finish) {
  TopkRun r;
  r.x = scores(c.outter * c.inner, 5);
  r.v.assign(1024, -1.0f);
  r.i.assign(1024, -1);
  optiling::TopkTiling t;
  const auto& plat = kPlatform;
  EXPECT_TRUE(TopKTilingFunc(plat, static_cast<int32_t>(c.inner), static_cast<int32_t>(c.outter),
                             static_cast<int32_t>(c.k), 4, false, TopKMode::TOPK_NORMAL, c.largest,
                             t));
  uint32_t max = 0, min = 0;
  EXPECT_TRUE(GetTopKMaxMinTmpSize(plat, static_cast<int32_t>(c.inner),
                                   static_cast<int32_t>(c.outter), false, false,
                                   TopKMode::TOPK_NORMAL, c.largest, 4, max, min));
  std::vector<std::uint8_t> bytes(t.GetDataSize());
  EXPECT_EQ(bytes.size(), sizeof(TopkTiling));
  t.SaveToBuffer(bytes.data(), bytes.size());
  std::memcpy(&r.t, bytes.data(), sizeof(r.t));
  EXPECT_EQ(r.t.tmpLocalSize, min);
  r.run = npusim::ascendc::run_blocks(
      &topk_kernel<kFinish>, 1, reinterpret_cast<GM_ADDR>(r.x.data()),
      reinterpret_cast<GM_ADDR>(const_cast<std::uint8_t*>(finish.data())),
      reinterpret_cast<GM_ADDR>(r.v.data()), reinterpret_cast<GM_ADDR>(r.i.data()), c,
      bytes.data());
  return r;
}

void expect_topk(const TopkCase& c, const TopkRun& r, const std::vector<std::uint8_t>& finish) {
  for (std::uint32_t row = 0; row < c.outter; ++row) {
    const std::vector<float> x(r.x.begin() + row * c.inner, r.x.begin() + row * c.inner + c.n);
    const std::vector<std::uint32_t> want = order(x, c.largest);
    for (std::uint32_t j = 0; j < r.t.kAlignValue; ++j) {
      const float v = r.v[row * r.t.kAlignValue + j];
      ASSERT_EQ(v, j < c.k ? x[want[j]] : 0.0f) << row << "," << j;  // the rest left as it was
    }
    for (std::uint32_t j = 0; j < r.t.kAlignIndex; ++j) {
      const std::int32_t want_i = j >= c.k           ? 0
                                  : finish[row] != 0 ? static_cast<std::int32_t>(c.n)
                                                     : static_cast<std::int32_t>(want[j]);
      ASSERT_EQ(r.i[row * r.t.kAlignIndex + j], want_i) << row << "," << j;
    }
  }
}

TEST(SortApi, TopKTakesTheSmallestOrLargestOfEachRowInOrder) {
  const std::vector<std::uint8_t> none(8, 0), some = {1, 0, 0, 1, 0, 0, 0, 0};
  const TopkCase small{2, 32, 32, 1, false, false};
  const TopkRun a = run_topk<true>(small, some);
  ASSERT_TRUE(a.run.ok()) << a.run.first_error();
  expect_topk(small, a, some);
  EXPECT_EQ(a.t.kAlignValue, 8u);
  EXPECT_EQ(a.t.kAlignIndex, 8u);
  const TopkCase large{4, 200, 190, 37, true, false};
  const TopkRun b = run_topk<false>(large, none);
  ASSERT_TRUE(b.run.ok()) << b.run.first_error();
  expect_topk(large, b, none);
  const TopkRun f = run_topk<false>({4, 200, 190, 37, true, true}, none);
  ASSERT_TRUE(f.run.ok()) << f.run.first_error();
  EXPECT_EQ(f.v, b.v);
  EXPECT_EQ(f.i, b.i);
  // Per row: 2 Copy in (2 full repeats, a tail of 62), a Duplicate of the tail, Sort32, the
  // MrgSort rounds of 224 padded elements (7 groups: 4 + 3, then 2: 3 instructions, ending in
  // the row's buffer), 2 GatherMask, a Copy out each for values and indices. Plus one
  // CreateVecIndex.
  EXPECT_EQ(vector_instrs(b.run), 1u + 4 * (2 + 1 + 1 + 3 + 2 + 2));
}

TEST(SortApi, TopKWithMoreValidElementsThanTheRowFailsNamingTopK) {
  const std::vector<std::uint8_t> none(8, 0);
  TopkCase c{2, 32, 32, 4, true, false};
  TopkRun r = run_topk<false>(c, none);
  ASSERT_TRUE(r.run.ok()) << r.run.first_error();
  c.n = 40;  // more than inner
  r = run_topk<false>(c, none);
  ASSERT_FALSE(r.run.ok());
  EXPECT_NE(r.run.first_error().find("TopK: TopKInfo {outter 2, inner 32, n 40}"),
            std::string::npos)
      << r.run.first_error();
}

}  // namespace
