// SPDX-License-Identifier: Apache-2.0
// PlatformAscendC reports the simulated chip: core counts and buffer sizes follow the
// configuration (a changed aicore.* knob changes what tiling sees), split and coupled chips
// count their cores as CANN documents, the fused-kernel block count, bandwidths per cycle, and
// the manager's one instance whatever SoC it is asked for.
#include <gtest/gtest.h>

#include <cstdint>

#include "tests/runtime/test_support.h"
#include "tiling/platform/platform_ascendc.h"

namespace npusim::rt::testing {
namespace {

using platform_ascendc::CoreMemType;
using platform_ascendc::PlatformAscendC;
using platform_ascendc::PlatformAscendCManager;

std::uint64_t mem(const PlatformAscendC& p, CoreMemType t) {
  std::uint64_t v = 12345;
  p.GetCoreMemSize(t, v);
  return v;
}

class Platform910BTest : public AclTest {
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.aicore.cube_cores = 20;
    config.aicore.vector_cores = 40;
    config.aicore.ub = sim::Bytes{128 * 1024};
    config.aicore.frequency = sim::Frequency{1.6e9};
    config.hbm.bandwidth = sim::Bandwidth{1.6e12};
  }
};

TEST_F(Platform910BTest, ReportsTheConfiguredSplitChip) {
  PlatformAscendC* p = PlatformAscendCManager::GetInstance();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->GetCoreNum(), 40u);  // split cores: the vector cores
  EXPECT_EQ(p->GetCoreNumAic(), 20u);
  EXPECT_EQ(p->GetCoreNumAiv(), 40u);
  EXPECT_EQ(p->GetCoreNumVector(), 0u);
  EXPECT_EQ(p->GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
  EXPECT_EQ(p->GetCurNpuArch(), platform_ascendc::NpuArch::DAV_2201);
  EXPECT_EQ(mem(*p, CoreMemType::UB), 128u * 1024);
  EXPECT_EQ(mem(*p, CoreMemType::L1), 512u * 1024);
  EXPECT_EQ(mem(*p, CoreMemType::L0_C), 128u * 1024);
  EXPECT_EQ(mem(*p, CoreMemType::RESERVED), 0u);
  std::uint64_t bw = 0;
  p->GetCoreMemBw(CoreMemType::HBM, bw);
  EXPECT_EQ(bw, 1000u);  // 1.6 TB/s at 1.6 GHz
  p->GetCoreMemBw(CoreMemType::UB, bw);
  EXPECT_EQ(bw, 0u);
  EXPECT_EQ(p->GetLibApiWorkSpaceSize(), 16u << 20);
  // 40 vector + 20 cube cores: a block is 1 cube + 2 vector cores.
  EXPECT_EQ(p->CalcTschNumBlocks(40, 20, 40), 20u);
  EXPECT_EQ(p->CalcTschNumBlocks(7, 20, 40), 4u);
  EXPECT_EQ(p->CalcTschNumBlocks(7, 0, 40), 7u);
  EXPECT_EQ(p->CalcTschBlockDim(40, 20, 40), 20u);
  // One instance, whatever SoC is named.
  EXPECT_EQ(PlatformAscendCManager::GetInstance("Ascend910B1"), p);
  EXPECT_EQ(PlatformAscendCManager::GetInstance("Ascend950PR_9589"), p);
}

class Platform310PTest : public AclTest {
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.soc.name = "Ascend310P3";
    config.soc.npu_arch = 2002;
    config.aicore.cube_cores = 8;
    config.aicore.vector_cores = 7;
  }
};

TEST_F(Platform310PTest, CoupledCoresAndStandAloneVectorCores) {
  const PlatformAscendC& p = *PlatformAscendCManager::GetInstance();
  EXPECT_EQ(p.GetCoreNum(), 8u);  // coupled: the AI Cores
  EXPECT_EQ(p.GetCoreNumAic(), 8u);
  EXPECT_EQ(p.GetCoreNumAiv(), 8u);
  EXPECT_EQ(p.GetCoreNumVector(), 7u);
  EXPECT_EQ(p.GetSocVersion(), platform_ascendc::SocVersion::ASCEND310P);
}

}  // namespace
}  // namespace npusim::rt::testing
