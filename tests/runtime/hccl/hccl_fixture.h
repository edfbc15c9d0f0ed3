// SPDX-License-Identifier: Apache-2.0
// The fixture of the HCCL tests (hccl_test.cpp, hccl_collectives_test.cpp, hccl_errors_test.cpp):
// a chip of 8 devices, ranks in host threads (hccl_support.h), and rank values whose fp32 sums
// depend on their order.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "hccl/hccl.h"
#include "tests/runtime/hccl/hccl_support.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing::hccl_test {

inline constexpr std::uint32_t kDevices = 8;

// A value of rank r, element i that makes fp32 sums depend on their order.
inline float value(std::uint32_t r, std::size_t i) {
  return static_cast<float>(std::sin(0.37 * static_cast<double>(i) + 1.3 * r) *
                            std::pow(10.0, static_cast<int>((i + r) % 7) - 3));
}

inline std::uint32_t bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

class HcclTest : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.soc.num_devices = kDevices;
    config.hccl.ring_threshold.value = ring_threshold_;
  }
  void TearDown() override {
    set_hang_timeout(30);
    AclTest::TearDown();
  }

  // Runs `body` on n ranks (run_ranks_sync); every rank's stream must synchronise.
  void run_ranks(std::uint32_t n, const RankBody& body) {
    for (aclError e : run_ranks_sync(n, body)) EXPECT_EQ(e, ACL_SUCCESS);
  }

  std::uint64_t ring_threshold_ = 1 << 20;
};

}  // namespace npusim::rt::testing::hccl_test
