// SPDX-License-Identifier: Apache-2.0
// Test fixture for the runtime API against FakeBackend: every test starts from aclInit on a fresh
// fake chip and ends with aclFinalize, so tests are independent even in one process.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "acl/acl.h"
#include "runtime/backend/fake_backend.h"

namespace npusim::rt::testing {

/// Installs a FakeBackend factory for the next aclInit; returns where the created backend will be
/// published (valid after aclInit).
FakeBackend** use_fake_backend(models::ChipConfig config = {}, FakeTiming timing = {});

/// The calling thread's simulated host clock.
SimTime host_clock();

class AclTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  /// Hook to change the chip or the fake timing before aclInit.
  virtual void configure(models::ChipConfig& config, FakeTiming& timing) {}

  FakeBackend& fake() { return **fake_; }
  /// Clears the thread's last error and message.
  static void clear_errors();

  FakeBackend** fake_ = nullptr;
};

/// AclTest plus aclrtSetDevice(0) and a stream.
class DeviceTest : public AclTest {
 protected:
  void SetUp() override;
  aclrtStream stream_ = nullptr;
};

}  // namespace npusim::rt::testing
