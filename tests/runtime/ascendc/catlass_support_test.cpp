// SPDX-License-Identifier: Apache-2.0
// Names CATLASS needs from the twin and the host headers: AscendC::SizeOfBits, the core mode
// registers (core_modes.h), and the host-side op::fp16_t / op::bfloat16 (opdev/).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "opdev/bfloat16.h"
#include "opdev/fp16_t.h"

namespace {

using npusim::ascendc::run_blocks;

TEST(CatlassSupport, SizeOfBits) {
  EXPECT_EQ(AscendC::SizeOfBits<AscendC::int4b_t>::value, 4u);  // packed: two per byte
  EXPECT_EQ(AscendC::SizeOfBits<const AscendC::int4b_t>::value, 4u);
  EXPECT_EQ(AscendC::SizeOfBits<int8_t>::value, 8u);
  EXPECT_EQ(AscendC::SizeOfBits<half>::value, 16u);
  EXPECT_EQ(AscendC::SizeOfBits<float>::value, 32u);
  EXPECT_EQ(AscendC::SizeOfBits<uint64_t>::value, 64u);
}

extern "C" __global__ __aicore__ void modes_kernel(GM_ADDR out) {
  AscendC::SetHF32Mode(false);
  AscendC::SetMMLayoutTransform(true);
  AscendC::SetMMLayoutTransform(false);
  AscendC::SetSyncBaseAddr(reinterpret_cast<std::uint64_t>(out));
}
static_assert(std::is_same_v<AscendC::TEventID, std::int8_t>);

extern "C" __global__ __aicore__ void hf32_kernel(GM_ADDR) { AscendC::SetHF32Mode(true); }

TEST(CatlassSupport, ModeRegistersRecordNoPipeInstruction) {
  std::int32_t sync_area = 0;
  auto r = run_blocks(&modes_kernel, 2, reinterpret_cast<GM_ADDR>(&sync_area));
  ASSERT_TRUE(r.ok()) << r.first_error();
  ASSERT_EQ(r.blocks.size(), 2u);
  for (const auto& b : r.blocks) EXPECT_TRUE(b.trace.instrs.empty());
}

TEST(CatlassSupport, Hf32ModeFailsTheKernelNamingIt) {
  auto r = run_blocks(&hf32_kernel, 1, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.first_error().find("SetHF32Mode"), std::string::npos) << r.first_error();
}

TEST(CatlassSupport, HostHalfTypesRoundToNearestEven) {
  const op::fp16_t h = 1.0f / 3.0f;  // binary16 0x3555 = 0.333251953125
  EXPECT_EQ(h.bits(), 0x3555u);
  EXPECT_EQ(static_cast<float>(h), 0.333251953125f);
  const op::bfloat16 b = 1.0f / 3.0f;  // float 0x3EAAAAAB rounds up to bfloat16 0x3EAB
  EXPECT_EQ(b.bits(), 0x3EABu);
  EXPECT_EQ(static_cast<float>(b), 0.333984375f);
  EXPECT_EQ(static_cast<float>(op::fp16_t(2.5f) * op::fp16_t(2.0f)), 5.0f);
  EXPECT_EQ(static_cast<float>(op::fp16_t(65520.0f)), INFINITY);  // above the largest half
}

}  // namespace
