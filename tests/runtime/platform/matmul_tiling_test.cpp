// SPDX-License-Identifier: Apache-2.0
// The host Matmul tiling (tiling/tiling_api.h) on the simulated chip: CANN's bytes for the
// devkit's AOT case, CANN's split over cores for the devkit examples whose kernels assume it,
// SetSingleShape honoured, base blocks inside the chip's L0 buffers (so a smaller L0C gives
// smaller blocks), SetFixSplit, and refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "tests/runtime/test_support.h"
#include "tiling/tiling_api.h"

namespace npusim::rt::testing {
namespace {

using matmul_tiling::CubeFormat;
using matmul_tiling::DataType;
using matmul_tiling::MultiCoreMatmulTiling;
using matmul_tiling::TPosition;

class MatmulTilingTest : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.aicore.cube_cores = 24;
    config.aicore.vector_cores = 48;
    config.aicore.l1 = sim::Bytes{512 * 1024};
    config.aicore.l0a = sim::Bytes{64 * 1024};
    config.aicore.l0b = sim::Bytes{64 * 1024};
    config.aicore.l0c = sim::Bytes{l0c_};
  }
  /// half A, B -> float C in GM, ND.
  static void types(MultiCoreMatmulTiling& t, bool bias) {
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.EnableBias(bias);
  }
  std::uint64_t l0c_ = 128 * 1024;
};

TEST_F(MatmulTilingTest, GivesCannsBytesForTheAotExample) {
  MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  t.SetDim(2);
  types(t, false);
  t.SetOrgShape(512, 512, 128);
  t.SetShape(512, 512, 128);
  t.SetBufferSpace(-1, -1, -1);
  TCubeTiling d{};
  ASSERT_EQ(t.GetTiling(d), 0);
  // The first 33 fields of matmul_aot_compilation's recorded tiling; the rest are 0.
  const std::int32_t want[33] = {2, 512, 512, 128, 128, 256, 512, 128, 128, 256, 64,
                                 4, 4,   2,   2,   0,   0,   0,   0,   196608, 131072, 0,
                                 1, 1,   1,   1,   2,   2,   0,   0,   2,   2,   1};
  std::int32_t got[50];
  std::memcpy(got, &d, sizeof(got));
  for (int i = 0; i < 33; ++i) EXPECT_EQ(got[i], want[i]) << "field " << i;
  for (int i = 33; i < 50; ++i) EXPECT_EQ(got[i], 0) << "field " << i;
  optiling::TCubeTiling host;
  ASSERT_EQ(t.GetTiling(host), 0);
  EXPECT_EQ(host.GetDataSize(), 200u);
  EXPECT_EQ(host.get_baseN(), 256);
}

TEST_F(MatmulTilingTest, SplitsOverTheCoresAndCoversTheMatrices) {
  MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  t.SetDim(24);
  types(t, true);
  t.SetOrgShape(128, 2048, 1024);
  t.SetShape(128, 2048, 1024);
  TCubeTiling d{};
  ASSERT_EQ(t.GetTiling(d), 0);
  EXPECT_EQ(d.usedCoreNum, 24);  // CANN's 3 x 8: 43 x 256 per core
  EXPECT_EQ(d.singleCoreM, 43);
  EXPECT_EQ(d.singleCoreN, 256);
  const int mp = (128 + d.singleCoreM - 1) / d.singleCoreM;
  const int np = (2048 + d.singleCoreN - 1) / d.singleCoreN;
  EXPECT_EQ(mp * np, d.usedCoreNum);
  EXPECT_EQ(d.isBias, 1);
  EXPECT_LE(d.baseN * 4, 1024);  // the bias row fits the bias table
  EXPECT_LE(d.baseM * d.baseN * 4, 128 * 1024);
  EXPECT_LE(2 * d.baseM * d.baseK * 2, 64 * 1024);
  EXPECT_LE(2 * d.baseK * d.baseN * 2, 64 * 1024);
  EXPECT_LE(d.shareL1Size, 512 * 1024);
}

/// One multi-core tiling of half A, B -> float C (GM, ND).
struct Case {
  int dim, m, n, k;
  bool bias = false, split_k = false, nbuffer33 = false;
  int fix_m = -1, fix_n = -1, fix_k = -1;
};

TCubeTiling tile(const Case& c) {
  MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  t.SetDim(c.dim);
  t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  t.SetOrgShape(c.m, c.n, c.k);
  t.SetShape(c.m, c.n, c.k);
  t.EnableBias(c.bias);
  t.SetBufferSpace(-1, -1, -1);
  if (c.fix_m > 0) t.SetFixSplit(c.fix_m, c.fix_n, c.fix_k);
  if (c.split_k) t.EnableMultiCoreSplitK(true);
  if (c.nbuffer33)
    t.SetMatmulConfigParams(1, false, matmul_tiling::ScheduleType::N_BUFFER_33);
  TCubeTiling d{};
  EXPECT_EQ(t.GetTiling(d), 0);
  return d;
}

// The devkit examples whose kernels compute their offsets and tails from the split CANN gives.
TEST_F(MatmulTilingTest, SplitsTheDevkitExamplesAsCann) {
  // matmul_leakyrelu_advanced_api: B and the bias are offset by blockIdx * singleCoreN.
  TCubeTiling d = tile({2, 512, 128, 128, true, false, false, 128, 64, 128});
  EXPECT_EQ(d.usedCoreNum, 2);
  EXPECT_EQ(d.singleCoreM, 512);
  EXPECT_EQ(d.singleCoreN, 64);
  EXPECT_EQ(d.singleCoreK, 128);
  EXPECT_EQ(d.baseM, 128);
  EXPECT_EQ(d.baseN, 64);
  EXPECT_EQ(d.baseK, 128);
  // matmul_async_iterate: one base block column per core, an even core count (AIC:AIV 1:2).
  d = tile({48, 640, 1024, 512, true});
  EXPECT_EQ(d.usedCoreNum, 40);
  EXPECT_EQ(d.singleCoreM, 64);
  EXPECT_EQ(d.singleCoreN, 256);
  EXPECT_EQ(d.singleCoreK, 512);
  EXPECT_EQ(d.baseN, 256);
  // matmul_nbuffer33: no tails, A in 3 x 3 base blocks.
  d = tile({24, 256, 512, 192, true, false, true});
  EXPECT_EQ(d.usedCoreNum, 2);
  EXPECT_EQ(d.singleCoreM, 256);
  EXPECT_EQ(d.singleCoreN, 256);
  EXPECT_EQ(d.singleCoreK, 192);
  // matmul_splitk: K in two halves.
  d = tile({24, 16, 16, 1024, false, true});
  EXPECT_EQ(d.usedCoreNum, 2);
  EXPECT_EQ(d.singleCoreM, 16);
  EXPECT_EQ(d.singleCoreN, 16);
  EXPECT_EQ(d.singleCoreK, 512);
  // A square problem on many cores keeps every core busy.
  d = tile({24, 1024, 1024, 1024});
  EXPECT_EQ(d.usedCoreNum, 24);
  EXPECT_EQ(d.singleCoreM, 128);
  EXPECT_EQ(d.singleCoreN, 342);
}

TEST_F(MatmulTilingTest, HonoursSetSingleShape) {
  MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  t.SetDim(4);
  types(t, false);
  t.SetOrgShape(512, 512, 256);
  t.SetShape(512, 512, 256);
  t.SetSingleShape(128, 512, 256);
  TCubeTiling d{};
  ASSERT_EQ(t.GetTiling(d), 0);
  EXPECT_EQ(d.usedCoreNum, 4);  // SetDim's, as in CANN
  EXPECT_EQ(d.singleCoreM, 128);
  EXPECT_EQ(d.singleCoreN, 512);
  EXPECT_EQ(d.singleCoreK, 256);
  int32_t sm = 0, sn = 0, sk = 0, dim = 0, md = 0, nd = 0;
  t.GetSingleShape(sm, sn, sk);
  EXPECT_EQ(sm, 128);
  EXPECT_EQ(sn, 512);
  EXPECT_EQ(sk, 256);
  t.GetCoreNum(dim, md, nd);
  EXPECT_EQ(dim, 4);
  EXPECT_EQ(md, 4);
  EXPECT_EQ(nd, 1);
  // Only N fixed: M and K are the whole SetShape extent.
  MultiCoreMatmulTiling u(*platform_ascendc::PlatformAscendCManager::GetInstance());
  u.SetDim(2);
  types(u, false);
  u.SetShape(64, 512, 128);
  u.SetSingleShape(-1, 256, -1);
  ASSERT_EQ(u.GetTiling(d), 0);
  EXPECT_EQ(d.usedCoreNum, 2);
  EXPECT_EQ(d.singleCoreM, 64);
  EXPECT_EQ(d.singleCoreN, 256);
  EXPECT_EQ(d.singleCoreK, 128);
}

class SmallL0cTilingTest : public MatmulTilingTest {
 protected:
  SmallL0cTilingTest() { l0c_ = 32 * 1024; }
};

TEST_F(SmallL0cTilingTest, BaseBlocksFollowTheChipsL0c) {
  MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  t.SetDim(1);
  types(t, false);
  t.SetShape(512, 512, 128);
  t.SetOrgShape(512, 512, 128);
  TCubeTiling d{};
  ASSERT_EQ(t.GetTiling(d), 0);
  EXPECT_EQ(d.baseM * d.baseN * 4, 32 * 1024);
  EXPECT_EQ(d.shareL0CSize, 32 * 1024);
}

TEST_F(MatmulTilingTest, FixSplitAndRefusals) {
  MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
  t.SetDim(2);
  types(t, true);
  t.SetShape(512, 128, 128);
  t.SetOrgShape(512, 128, 128);
  t.SetFixSplit(128, 64, 128);
  TCubeTiling d{};
  ASSERT_EQ(t.GetTiling(d), 0);
  EXPECT_EQ(d.baseM, 128);
  EXPECT_EQ(d.baseN, 64);
  EXPECT_EQ(d.baseK, 128);
  t.SetFixSplit(256, 256, 128);  // 256 KiB of L0C
  EXPECT_EQ(t.GetTiling(d), -1);
  MultiCoreMatmulTiling bad(*platform_ascendc::PlatformAscendCManager::GetInstance());
  bad.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  bad.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  bad.SetShape(16, 16, 16);
  EXPECT_EQ(bad.GetTiling(d), -1);  // mixed input types
}

}  // namespace
}  // namespace npusim::rt::testing
