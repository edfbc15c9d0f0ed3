// SPDX-License-Identifier: Apache-2.0
// The host Matmul tiling (tiling/tiling_api.h) on the simulated chip: CANN's bytes for the
// devkit's AOT case, a split over many cores that covers the matrices, base blocks inside the
// chip's L0 buffers (so a smaller L0C gives smaller blocks), SetFixSplit, and refusals.
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
  EXPECT_LE(d.usedCoreNum, 24);
  EXPECT_GE(d.usedCoreNum, 20);
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
